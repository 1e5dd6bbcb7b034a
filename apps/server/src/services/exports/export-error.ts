/** The export domain's own failures; rpc/methods/exports maps them to catalogue codes. */
export type TExportErrorKind = 'not_found';

export class ExportError extends Error {
  readonly kind: TExportErrorKind;

  constructor(kind: TExportErrorKind) {
    super(`export: ${kind}`);
    this.name = 'ExportError';
    this.kind = kind;
  }
}

/** Who asks: the acting account and the signed-in user (a session's TAuth satisfies it). */
export type TExportCaller = { userId: string; account: { id: string } };
