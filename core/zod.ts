// The one way Kiln's code reaches zod: its tree-shakable "mini" build with the English messages
// classic zod would have set. Classic zod costs a node about 4 MB idle (its whole namespace is
// evaluated, and every schema carries some forty methods); mini builds the same core schemas, so
// parsing and its issues are unchanged.
import * as z from "zod/mini";
import en from "zod/v4/locales/en.js";

z.config(en());

export { z };
