import { detectLanguage } from './language.detector';

const SAMPLES: Record<string, string> = {
  en: 'The company owns warehouses and mining royalty lands, and it will develop the remaining lots of the business park for the benefit of our shareholders in the coming years.',
  de: 'Die Gesellschaft ist im Immobiliengeschäft tätig und wird die verbleibenden Grundstücke des Gewerbeparks entwickeln, auch wenn sich die Märkte nicht über das Jahr hinweg erholen werden.',
  fr: 'La société est propriétaire des entrepôts et des terrains miniers, et nous avons pour objectif de développer les parcelles qui sont encore disponibles dans le parc avec nos partenaires.',
  es: 'La compañía es propietaria de los almacenes y de las tierras mineras, y el grupo desarrollará los lotes que quedan en el parque empresarial durante los próximos años con sus socios.',
  it: 'La società è proprietaria dei magazzini e dei terreni minerari, e ha il compito di sviluppare i lotti rimanenti del parco per gli azionisti nella regione con anche nuovi partner.',
  pt: 'A empresa é proprietária dos armazéns e das terras de mineração, e não vai parar de desenvolver os lotes que restam no parque empresarial com os seus parceiros nos próximos anos.',
  nl: 'Het bedrijf is eigenaar van de magazijnen en van het mijnbouwland, en wij zullen de resterende kavels van het bedrijvenpark ook voor onze aandeelhouders ontwikkelen met een partner.',
};

describe('detectLanguage', () => {
  it.each(Object.entries(SAMPLES))('detects %s', (language, text) => {
    expect(detectLanguage(text)).toBe(language);
  });

  it('is null under 20 words and for text without stopwords', () => {
    expect(detectLanguage('FRP Holdings, Inc. Investor Presentation')).toBeNull();
    expect(detectLanguage('Revenue 1,234 Operating profit 5,678 EBITDA 910 Total assets 1,112 Liabilities 1,314 Equity 1,516 Cash 1,718 Debt 1,920 Shares 2,122 NOI 2,324 Acres 2,526 Tons 2,728')).toBeNull();
  });
});
