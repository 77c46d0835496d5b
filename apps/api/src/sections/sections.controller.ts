import type { DataSource } from 'typeorm';
import { TenkSectionsRepository } from '@app/persistence';
import type { CompaniesService } from '../companies/companies.service';
import { ValidationError, type ValidationItem } from '../platform/api.errors';
import { QueryParser } from '../platform/query.validation';
import type { BoundRoute, RouteDefinition } from '../platform/route.registry';
import { toSection } from './sections.mapper';
import { sectionPathParams, sectionSchema, type SectionBody } from './sections.schemas';
import { SectionsService } from './sections.service';

export const sectionsRoutes = {
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
} satisfies Record<string, RouteDefinition>;

const pathParser = new QueryParser(sectionPathParams);

/** HTTP side of 10-K sections: validate symbol and item, call the service, map to the resource. */
export class SectionsController {
  constructor(private readonly service: SectionsService) {}

  routes(): BoundRoute[] {
    return [{ definition: sectionsRoutes.get, handler: (req) => this.get(req.params as Record<string, unknown>) }];
  }

  async get(params: Record<string, unknown>): Promise<SectionBody> {
    const items: ValidationItem[] = [];
    const p = pathParser.parse(params, items, 'path');
    if (items.length) throw new ValidationError(items);
    const { company, section } = await this.service.get(p.symbol as string, (p.item as string).toUpperCase());
    return toSection(company, section);
  }
}

/** Wires the sections controller on the api's DataSource and the shared companies lookup (called from api.context). */
export function createSectionsController(dataSource: DataSource, companies: CompaniesService): SectionsController {
  return new SectionsController(new SectionsService(new TenkSectionsRepository(dataSource), companies));
}
