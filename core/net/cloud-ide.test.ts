import { expect, test } from "bun:test";
import { isCloudIdeHost } from "./cloud-ide";

test("cloud development environment hosts are recognised, others are not", () => {
  for (const host of ["foo-8080.app.github.dev", "x.github.dev", "8080-abc.gitpod.io", "a.codeanywhere.com", "w.cloudworkstations.dev:443", "X.GITPOD.IO."]) {
    expect(isCloudIdeHost(host)).toBe(true);
  }
  for (const host of ["localhost:8080", "panel.example.com", "github.dev.example.com", "mygitpod.io", undefined]) {
    expect(isCloudIdeHost(host)).toBe(false);
  }
});
