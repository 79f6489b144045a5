// Shape of the captured kubectl request bodies in this folder.
export interface KubectlFixture {
  readonly name: string;
  /** The kubectl command that sent the body. */
  readonly command: string;
  /** The request body exactly as kubectl sent it, hex-encoded. */
  readonly protobufHex: string;
  /** The same object as kubectl prints it in JSON. */
  readonly json: Record<string, unknown>;
}
