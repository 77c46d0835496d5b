import { TenkSectionsRepository } from '@app/persistence';
import { sectionSchema, toSection } from '@app/resources';
import { defineRoutes } from '../platform/route.registry';
import type { RouteModule } from '../platform/route.module';
import { sectionPathParams } from './sections.schemas';
import { SectionsService } from './sections.service';

export const sectionsRoutes = defineRoutes({
  get: {
    method: 'GET',
    url: '/v1/companies/:symbol/sections/:item',
    operationId: 'getCompanySection',
    summary: "One item of a company's newest 10-K",
    description:
      "Item 1 (Business), 1A (Risk Factors) or 7 (MD&A) of the newest 10-K read for the company's issuer, located by the item's heading in " +
      'the body (never the table of contents) or by the filer\'s cross-reference index: its `status` (extracted, incorporated_by_reference, ' +
      'not_present, failed with a `reason`), its character offsets into the document\'s text and the text itself. The provenance names the ' +
      "10-K's accession, its primary document and that document's sha256. 404 `section-not-extracted` while no 10-K of the issuer has been read.",
    tags: ['companies'],
    path: sectionPathParams,
    response: sectionSchema,
    errors: [404],
  },
});

/** HTTP side of 10-K sections: typed symbol and item in, the service, the resource out. */
export const sectionsApi: RouteModule = {
  routes: sectionsRoutes,
  bind({ binder, companies, dataSource }) {
    const service = new SectionsService(new TenkSectionsRepository(dataSource), companies);
    return [
      binder.bind(sectionsRoutes.get, {
        handle: async ({ path }) => {
          const { company, section } = await service.get(path.symbol, path.item.toUpperCase());
          return toSection(company, section);
        },
      }),
    ];
  },
};
