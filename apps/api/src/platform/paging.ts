import type { Direction, KeyPart, KeysetOrder, Page, PageRequest } from '@app/persistence';
import type { Principal } from '../auth/api-keys.service';
import { ValidationError } from './api.errors';
import { filterHash, isEarlierVersionCursor, type CursorBinding, type CursorCodec } from './cursor.codec';
import { valueErrorItem } from './query.validation';

/** The paging parameters of a list route, as parsed. */
export interface PageParams {
  cursor?: string;
  direction?: Direction;
  limit: number;
}

/** What a page's cursor is bound to, and how the list is ordered. */
export interface ListScope<R> {
  /** The list's name in cursors (a cursor of one list is refused by another). */
  list: string;
  /** The normalized filters: a cursor only continues the list it came from. */
  filters: Record<string, unknown>;
  order: KeysetOrder<R>;
  /** Direction when the request gives none and no cursor does. */
  defaultDirection: Direction;
  /**
   * A feed: the cursor marks the reader's position even on the last page (the last row's key, or
   * the given cursor's on an empty page), so the reader resumes from it later. Null only when
   * there has never been a row to pass.
   */
  keepsPosition?: boolean;
}

export interface ListBody<T> {
  data: T[];
  pagination: { next_cursor: string | null; has_more: boolean };
}

/** One list request: its cursor checked, the page to ask the repository for, and the body of the page it gets. */
export interface OpenPage<R> {
  request: PageRequest;
  body<T>(page: Page<R>, map: (row: R) => T): ListBody<T>;
}

const EARLIER_VERSION =
  'Invalid cursor: it is from an earlier version of the API, whose cursors were not bound to an account; ' +
  'start the list again without cursor and page on with the new next_cursor';

/**
 * Every list route's paging: cursor in, page request to the repository, page and next cursor out.
 * A cursor is bound to the caller's account, the list and its filters: `caller` is the route's
 * principal (null on a public route, whose cursors belong to no account).
 */
export class Paging {
  constructor(private readonly cursors: CursorCodec) {}

  /** The page a request asks for; a cursor that is not genuine, not this caller's, not this list's or not of its order is a 422. */
  open<R>(caller: Principal | null, params: PageParams, scope: ListScope<R>): OpenPage<R> {
    const binding = bindingOf(caller, scope);
    let direction = params.direction;
    let after: PageRequest['after'];
    if (params.cursor !== undefined) {
      const decoded = this.cursors.decode(params.cursor, { ...binding, d: direction, order: scope.order });
      if (!decoded) throw new ValidationError([valueErrorItem(['query', 'cursor'], params.cursor, isEarlierVersionCursor(params.cursor) ? EARLIER_VERSION : 'Invalid cursor')]);
      after = decoded.k;
      direction = decoded.d;
    }
    const d = direction ?? scope.defaultDirection;
    return {
      request: { direction: d, limit: params.limit, after },
      body: (page, map) => {
        const nextKey = scope.keepsPosition ? positionKey(scope.order, page, after) : page.nextKey;
        return {
          data: page.rows.map(map),
          pagination: { next_cursor: nextKey ? this.cursors.encode({ k: nextKey, d }, binding) : null, has_more: page.hasMore },
        };
      },
    };
  }

  /** A list route's whole paging, for a page that is all the route needs. */
  async list<R, T>(caller: Principal | null, params: PageParams, scope: ListScope<R>, fetch: (page: PageRequest) => Promise<Page<R>>, map: (row: R) => T): Promise<ListBody<T>> {
    const open = this.open(caller, params, scope);
    return open.body(await fetch(open.request), map);
  }

  /**
   * A feed position kept from before cursors were bound to an account, re-issued as a cursor of
   * this caller when `inCallersFeed` confirms the position is a row of the caller's own feed; any
   * other cursor as given, for open() to judge. Such a position is only a place in the feed all
   * accounts share, so it tells nothing of another account unless it is that account's own row.
   */
  async resumeEarlierFeedPosition<R>(caller: Principal, cursor: string | undefined, scope: ListScope<R>, inCallersFeed: (key: KeyPart[]) => Promise<boolean>): Promise<string | undefined> {
    if (!scope.keepsPosition || cursor === undefined || !isEarlierVersionCursor(cursor)) return cursor;
    const binding = bindingOf(caller, scope);
    const earlier = this.cursors.decodeEarlierVersion(cursor, { f: binding.f, order: scope.order });
    return earlier && (await inCallersFeed(earlier.k)) ? this.cursors.encode(earlier, binding) : cursor;
  }
}

function bindingOf(caller: Principal | null, scope: { list: string; filters: Record<string, unknown> }): CursorBinding {
  return { account: caller?.accountId ?? '', f: filterHash(scope.list, scope.filters) };
}

/** A feed's position after this page: its last row, else where the reader already was. */
function positionKey<R>(order: KeysetOrder<R>, page: Page<R>, after: PageRequest['after']): KeyPart[] | null {
  const last = page.rows[page.rows.length - 1];
  if (last !== undefined) return order.columns.map((c) => c.of(last));
  return after ? [...after] : null;
}
