// A request's address is made from its Host header, which its sender writes. One that is no host
// ("a%b", "[", a port past 65535) makes the address unparsable, and every step that reads it
// would fail half way with a 500: such a request is refused first, by the panel and the node alike.
import { KilnError } from "../errors";

export function assertValidHost(url: string): void {
  if (!URL.canParse(url)) throw new KilnError("ErrFieldIsInvalidHost", { field: "host" });
}
