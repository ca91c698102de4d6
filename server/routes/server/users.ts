// The users tab's plain forms: share the server with someone (or invite them), change a user's
// flags (or a preset's), remove a user. Nobody gives or takes a flag they do not hold
// (services/servers' grantable rule).
import type { Hono } from "hono";
import { KilnError } from "../../../core/errors";
import { withPreset } from "../../../core/scopes/presets";
import type { KilnEnv } from "../../context";
import type { Deps } from "../../deps";
import { requirePageLogin } from "../../middleware/require";
import { assertGrantableByAddress, deleteServerUser, findUserByEmail, putServerUser } from "../../services/servers";
import { shareServer } from "../../share-server";
import type { ServerPageHost } from "./host";

export function userFormRoutes(app: Hono<KilnEnv>, deps: Deps, { form }: ServerPageHost): void {
  app.post("/server/:id/users", requirePageLogin(), form("editServerUsers", "users", async (c, id, body, access) => {
    const email = String(body.email ?? "").trim();
    if (email === "") return { error: c.get("t")("users.noEmail"), errorField: "email", posted: body, status: 400 };
    try {
      // A preset button (no script) sends its name: its flags replace the switches'.
      const invited = await shareServer(c, deps, access, id, email, withPreset(body));
      // An invitation is shown: emailed, or (to a caller who may create accounts) its link to pass on.
      return invited ? { invited: { email, emailSent: invited.emailSent, url: invited.inviteUrl } } : "serverUsers.saved";
    } catch (error) {
      // Said in the words of this form: the person has no account, and no invitation can reach them.
      if (error instanceof KilnError && (error.code === "ErrEmailNotConfigured" || error.code === "ErrInviteNeedsMasterUrl")) {
        const key = error.code === "ErrEmailNotConfigured" ? "serverUsers.inviteNeedsEmail" : "serverUsers.inviteNeedsMasterUrl";
        return { error: c.get("t")(key, { email }), errorField: "email", posted: body, status: error.status };
      }
      throw error;
    }
  }));

  app.post("/server/:id/users/:email", requirePageLogin(), form("editServerUsers", "users", async (c, id, body, access) => {
    const user = await findUserByEmail(deps.db, c.req.param("email")!);
    if (!user) throw new KilnError("ErrUserNotFound");
    await assertGrantableByAddress(deps.db, user, c.req.param("email")!, id);
    await putServerUser(deps.db, access, id, user.id, withPreset(body));
    return "serverUsers.saved";
  }));

  app.post("/server/:id/users/:email/delete", requirePageLogin(), form("editServerUsers", "users", async (c, id, _body, access) => {
    await deleteServerUser(deps.db, access, id, c.req.param("email")!);
    return "serverUsers.removed";
  }));
}
