// A change to the add-ons runs on the node after its request was answered (202): the tab asks for
// its state once a second until it has ended, reporting each answer so the page can show the step.
import type { ChangeStatus } from "../../core/mods/change";
import type { ModsApi } from "./mods-api";

/** How often a running change is asked about. */
export const POLL_MS = 1000;

/** Resolves with the change's last state (done, failed or undone); `onStatus` sees every state on the way. */
export async function followChange(mods: ModsApi, first: ChangeStatus, onStatus: (status: ChangeStatus) => void = () => {}, isCancelled: () => boolean = () => false): Promise<ChangeStatus> {
  let status = first;
  onStatus(status);
  while (status.state === "running" && !isCancelled()) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    if (isCancelled()) break;
    status = await mods.change(status.changeId);
    onStatus(status);
  }
  return status;
}
