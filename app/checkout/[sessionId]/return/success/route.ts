import { providerReturn } from "../provider-return";

export const dynamic = "force-dynamic";

export const GET = providerReturn("success");
