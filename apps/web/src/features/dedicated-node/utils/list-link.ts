/** The node list's address, and after a purchase the one that marks the new node (?created=<id>). */
export const LIST_PATH = '/rpc/dedicated-node';
export const CREATED_PARAM = 'created';

export function listPathWithCreated(nodeId: string | null): string {
  return nodeId ? `${LIST_PATH}?${CREATED_PARAM}=${encodeURIComponent(nodeId)}` : LIST_PATH;
}
