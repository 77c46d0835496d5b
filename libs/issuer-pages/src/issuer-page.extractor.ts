import { extractDescription, type CompanyDescription } from './description.extractor';
import { extractDocuments, type DocumentLink } from './documents.extractor';
import { pageModel } from './page-text';
import { extractAnalysts, extractExecutives, extractIrContacts, type IssuerIdentity, type RosterItem } from './roster.extractor';
import { extractSiteLinks, type SiteLinks } from './site-links.extractor';

/** Everything one IR page says, each item with its verbatim quote. */
export interface IssuerPageExtract {
  url: string;
  title: string;
  description: CompanyDescription | null;
  /** Page order. */
  irContacts: RosterItem[];
  /** Page order. */
  analysts: RosterItem[];
  /** Seniority order (EXECUTIVE_SENIORITY). */
  executives: RosterItem[];
  /** Page order, one per URL. */
  documents: DocumentLink[];
  /** Same-host pages to read next. */
  links: SiteLinks;
}

/** Pure: page bytes + its URL + the issuer -> what the page says. Affiliation of executives: the issuer's name. */
export function extractIssuerPage(html: string | Buffer, pageUrl: string, issuer: IssuerIdentity): IssuerPageExtract {
  const page = pageModel(html, pageUrl);
  const company = issuer.name ?? issuer.ticker ?? issuer.cik;
  return {
    url: pageUrl,
    title: page.title,
    description: extractDescription(page, issuer),
    irContacts: extractIrContacts(page, issuer, company),
    analysts: extractAnalysts(page),
    executives: extractExecutives(page, company),
    documents: extractDocuments(page, issuer.cik),
    links: extractSiteLinks(page),
  };
}
