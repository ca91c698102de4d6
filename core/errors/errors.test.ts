import { describe, expect, test } from "bun:test";
import { ERROR_CODES, ERROR_STATUS, KilnError, isErrorBody, maskSecrets, httpStatusKey } from ".";

describe("error catalogue", () => {
  test("every error code is in the catalogue", () => {
    const spec = "ErrGeneric ErrUnknownError ErrInvalidCredentials ErrServiceNotAvailable ErrEmailNotConfigured ErrTokenInvalid ErrClientNotFound ErrUserNotFound ErrLoginNotPermitted ErrInvalidTokenState ErrSettingNotConfigured ErrNoTemplate ErrServiceInvalidProvider ErrFieldRequired ErrFieldMustBePrintable ErrFieldHasURICharacters ErrFieldIsInvalidHost ErrFieldIsInvalidIP ErrFieldTooLarge ErrFieldTooSmall ErrFieldNotBetween ErrFieldEqual ErrFieldNotEqual ErrFieldNotEmail ErrFieldLength ErrNoPermission ErrDatabaseNotAvailable ErrNoNodes ErrNoTemplates ErrPasswordRequirements ErrUsernameRequirements ErrPasswordsNotIdentical ErrSessionTimedOut ErrMissingScope ErrInvalidJson ErrSocketFailed ErrInviteLinkInvalid ErrSavingInviteduser ErrDuplicateServerName ErrDuplicateNodeName ErrDirectoryUploadNotSupported ErrDockerNotSupported ErrMissingBinary ErrUnsupportedOS ErrUnsupportedArch".split(" ");
    for (const code of spec) expect(ERROR_CODES).toContain(code as never);
  });

  test("a KilnError carries its status and body", () => {
    const e = new KilnError("ErrFieldTooLarge", { field: "port", max: 65535 });
    expect(e.status).toBe(400);
    // Its msg is the English sentence locales/english installs (locales/english.test.ts).
    expect(e.toBody()).toMatchObject({ error: { code: "ErrFieldTooLarge", metadata: { field: "port", max: 65535 } } });
    expect(isErrorBody(e.toBody())).toBe(true);
    expect(isErrorBody({ message: "x" })).toBe(false);
    expect(new KilnError("ErrMissingScope").status).toBe(403);
    expect(ERROR_STATUS.ErrSessionTimedOut).toBe(401);
  });

  test("the technical dump masks passwords and secrets at any depth", () => {
    const masked = maskSecrets({
      email: "a@b.c",
      password: "hunter22",
      nested: { newPassword: "x", list: [{ clientSecret: "s", token: "t", keep: 1 }] },
      headers: { Authorization: "Bearer abc" },
      empty: { password: "" },
    }) as any;
    expect(masked.email).toBe("a@b.c");
    expect(masked.password).toBe("********");
    expect(masked.nested.newPassword).toBe("********");
    expect(masked.nested.list[0]).toEqual({ clientSecret: "********", token: "********", keep: 1 });
    expect(masked.headers.Authorization).toBe("********");
    expect(JSON.stringify(masked)).not.toContain("hunter22");
  });

  test("HTTP statuses map to the dump's names", () => {
    expect([401, 403, 404, 500, 502].map(httpStatusKey)).toEqual(["errors.http.401", "errors.http.403", "errors.http.404", "errors.http.500", "errors.http.502"]);
    expect(httpStatusKey(418)).toBeUndefined();
  });
});
