/** A page's query as Next.js hands it over: a key given twice is an array. */
export type SearchParams = Record<string, string | string[] | undefined>;

/** The props of a page under an `[id]` segment that reads its query too. */
export type IdPageProps = {
  params: Promise<{ id: string }>;
  searchParams: Promise<SearchParams>;
};
