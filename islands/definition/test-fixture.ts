// A server definition for the editor's tests.
import { templateSchema } from "../../core/definition";

/** A definition as the node would hold it (schema defaults filled in), plus fields Kiln does not know. */
export function sampleDefinition() {
  return {
    ...templateSchema.parse({
      id: "srv1",
      name: "paper",
      display: "Paper server",
      type: "minecraft-java",
      install: [
        { type: "mojangdl", version: "1.20.4", target: "paper.jar" },
        { type: "command", commands: ["echo eula=true > eula.txt"], retries: 3 },
      ],
      run: {
        command: "java -Xmx${memory} -jar paper.jar nogui",
        stop: "stop",
        pre: [{ type: "mkdir", target: "logs" }],
        environmentVars: { TZ: "UTC", LANG: "C.UTF-8" },
        autostart: true,
      },
      data: {
        memory: { display: "Memory", desc: "Heap size", type: "string", value: "2G", options: [{ value: "1G", display: "1 GB" }] },
        eula: { display: "EULA", type: "boolean", value: true },
      },
      environment: { type: "docker", image: "eclipse-temurin:21", portBindings: ["0.0.0.0:25565:25565/tcp", "19132/udp"], bindings: { "/srv/maps": "/data/maps" } },
    }),
    // Not in the schema: written by another tool or a newer Kiln.
    icon: "creeper.png",
    meta: { tags: ["survival"], author: { name: "someone" } },
  };
}
