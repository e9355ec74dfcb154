/** The pagination envelope of every list endpoint (pagination.py: CustomPagination; PK-DB API notes §1). */
import { z } from 'zod';

export function Paginated<Item extends z.ZodType>(item: Item) {
  return z.looseObject({
    current_page: z.number().int(),
    last_page: z.number().int(),
    /** Absolute; null on the last page. */
    next_page_url: z.string().nullable(),
    /** Absolute; null on page 1; for page 2 it drops `page` instead of writing page=1. */
    prev_page_url: z.string().nullable(),
    data: z.looseObject({ count: z.number().int(), data: z.array(item) }),
  });
}
/** One page of `Item` as parsed (the schema's output type). */
export type Page<Item extends z.ZodType> = z.infer<ReturnType<typeof Paginated<Item>>>;
