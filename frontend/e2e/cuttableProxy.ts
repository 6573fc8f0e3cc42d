/**
 * A TCP proxy in front of the backend whose open connections can be cut at will — a real network
 * cut (the browser sees its stream break mid-body), not a mocked response.
 */
import net from "node:net";

export interface CuttableProxy {
  readonly url: string;
  /** Destroys every open connection; new ones are accepted as before. Returns how many were cut. */
  cutAll(): number;
  close(): Promise<void>;
}

export async function startCuttableProxy(targetPort: number): Promise<CuttableProxy> {
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, "127.0.0.1");
    open.add(client);
    open.add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = () => {
      open.delete(client);
      open.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    cutAll() {
      const sockets = [...open];
      for (const s of sockets) s.destroy();
      return sockets.length;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}
