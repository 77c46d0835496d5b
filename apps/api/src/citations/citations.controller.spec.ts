import type { CitationToVerify, CitationVerdict } from '@app/citations';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../platform/api.errors';
import { RouteBinder } from '../platform/route.registry';
import type { PlanTable } from '../rate-limit/plans';
import { bindVerify, CitationsController } from './citations.controller';

const provenance = { source_url: 'https://www.sec.gov/files/company_tickers.json', quote: '"ticker":"MSFT"', content_hash: `sha256:${'a'.repeat(64)}` };
const verdict = { verified: true } as CitationVerdict;

/** A verifier whose verifications end when the test says so. */
class HeldVerifier {
  readonly pending: Array<() => void> = [];
  verify(_c: CitationToVerify): Promise<CitationVerdict> {
    return new Promise((resolve, reject) => this.pending.push(() => (this.failNext ? reject(new Error('boom')) : resolve(verdict))));
  }
  failNext = false;
}

describe('CitationsController: at most maxConcurrent verifications', () => {
  it('refuses one more at once with 503 busy and Retry-After, and takes new ones as slots free (failures free theirs too)', async () => {
    const verifier = new HeldVerifier();
    const controller = new CitationsController(verifier, 2);
    const first = controller.verify({ provenance });
    const second = controller.verify({ provenance });
    expect(controller.inFlight).toBe(2);
    const refused: unknown = await controller.verify({ provenance }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({ status: 503, slug: 'busy', headers: { 'Retry-After': '2' } });
    expect(verifier.pending).toHaveLength(2); // the refused one never reached the verifier

    verifier.pending.shift()!();
    await expect(first).resolves.toBe(verdict);
    const third = controller.verify({ provenance });
    expect(controller.inFlight).toBe(2);
    verifier.failNext = true;
    verifier.pending.shift()!();
    await expect(second).rejects.toThrow('boom');
    verifier.failNext = false;
    verifier.pending.shift()!();
    await expect(third).resolves.toBe(verdict);
    expect(controller.inFlight).toBe(0);
  });

  it('a malformed body is a 422, and takes no slot', async () => {
    const controller = new CitationsController(new HeldVerifier(), 1);
    // The body is parsed by the bound route, before the controller: the route has no query, so no plan is read.
    const route = bindVerify(new RouteBinder({} as PlanTable), controller);
    const request = { query: {}, params: {}, body: { provenance: { ...provenance, content_hash: 'md5:x' } } } as unknown as FastifyRequest;
    await expect(route.handler(request, {} as FastifyReply)).rejects.toMatchObject({ name: 'ValidationError' });
    expect(controller.inFlight).toBe(0);
  });
});
