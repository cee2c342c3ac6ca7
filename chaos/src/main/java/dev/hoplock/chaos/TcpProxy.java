package dev.hoplock.chaos;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * A fault-injecting TCP proxy between one node and the S3 server, both on 127.0.0.1. The mode applies to every
 * connection, existing and new, from the moment it is set:
 * <ul>
 *   <li>{@link Mode#PASS}: bytes flow both ways.</li>
 *   <li>{@link Mode#BLACKHOLE}: bytes in both directions vanish; connections stay open; nothing answers.</li>
 *   <li>{@link Mode#DELAY}: every chunk is delivered {@link #delayMillis} late, in order, in both directions.</li>
 *   <li>{@link Mode#RESET}: every connection is reset (RST) at once, new ones as soon as they are accepted.</li>
 *   <li>{@link Mode#RESET_RESPONSES}: requests reach the server (and take effect), but the connection is reset
 *       instead of the answer being delivered, so the client's library retries a request that already happened.</li>
 * </ul>
 * Only 127.0.0.1 is used, on both sides. Each accepted connection is connected upstream on its own thread, waiting
 * at most the connect timeout (a loaded server can take seconds to accept); a connection whose upstream refuses it or
 * cannot be reached in time is reset, as a dead server's would be, and counted ({@link #upstreamFailures()}) with its
 * cause, for the report.
 */
final class TcpProxy implements AutoCloseable {

    /** What the proxy does to traffic. */
    enum Mode { PASS, BLACKHOLE, DELAY, RESET, RESET_RESPONSES }

    private final ServerSocket server;
    private final int targetPort;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicLong resets = new AtomicLong();
    private final AtomicLong upstreamFailures = new AtomicLong();
    private final int connectTimeoutMillis;
    private volatile String lastUpstreamFailure = "";
    private volatile Mode mode = Mode.PASS;
    private volatile long delayMillis;
    private volatile boolean closed;

    TcpProxy(int targetPort, int connectTimeoutMillis) throws IOException {
        this.targetPort = targetPort;
        this.connectTimeoutMillis = connectTimeoutMillis;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptLoop, "proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return server.getLocalPort();
    }

    long resets() {
        return resets.get();
    }

    /** Connections reset because the server refused them or did not accept within the connect timeout. */
    long upstreamFailures() {
        return upstreamFailures.get();
    }

    /** The connect timeout and the cause of the last upstream failure, for the report. */
    String upstreamFailureCause() {
        return "the S3 server refused them or did not accept within " + connectTimeoutMillis + " ms (last: "
                + lastUpstreamFailure + ")";
    }

    /** Switches the mode; RESET also resets every open connection now. */
    void mode(Mode next, long delay) {
        this.delayMillis = delay;
        this.mode = next;
        if (next == Mode.RESET) {
            for (Socket socket : open) {
                reset(socket);
            }
        }
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                return;
            }
            if (mode == Mode.RESET) {
                reset(client);
                continue;
            }
            open.add(client);
            start(() -> connect(client), "proxy-connect");
        }
    }

    /** Connects {@code client}'s upstream, off the accepting thread, and starts its pumps; resets it on failure. */
    private void connect(Socket client) {
        Socket upstream = new Socket();
        try {
            upstream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), connectTimeoutMillis);
        } catch (IOException e) {
            upstreamFailures.incrementAndGet();
            lastUpstreamFailure = e.toString();
            reset(client);
            closeQuietly(upstream);
            return;
        }
        open.add(upstream);
        if (mode == Mode.RESET || closed) {
            reset(client);
            reset(upstream);
            return;
        }
        start(() -> pump(client, upstream, true), "proxy-up");
        start(() -> pump(upstream, client, false), "proxy-down");
    }

    /** Copies {@code from} to {@code to}, applying the mode to each chunk; requests flow "up", answers "down". */
    private void pump(Socket from, Socket to, boolean up) {
        BlockingQueue<Chunk> delayed = new LinkedBlockingQueue<>();
        long lastDue = 0;
        Thread writer = start(() -> drain(delayed, to, from), up ? "proxy-up-delay" : "proxy-down-delay");
        byte[] buffer = new byte[16 * 1024];
        try {
            InputStream in = from.getInputStream();
            while (!closed) {
                int n = in.read(buffer);
                if (n < 0) {
                    break;
                }
                Mode now = mode;
                if (now == Mode.BLACKHOLE) {
                    continue;
                }
                if (now == Mode.RESET || (now == Mode.RESET_RESPONSES && !up)) {
                    reset(to);
                    reset(from);
                    break;
                }
                long delay = now == Mode.DELAY ? delayMillis : 0;
                // Never before an earlier chunk: a stream stays in order when the delay changes.
                long due = Math.max(lastDue, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delay));
                lastDue = due;
                delayed.add(new Chunk(Arrays.copyOf(buffer, n), due));
            }
        } catch (IOException ignored) {
            // the other side went away or was reset
        } finally {
            delayed.add(new Chunk(null, 0));
            try {
                writer.join(60_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            closeQuietly(from);
            closeQuietly(to);
            open.remove(from);
            open.remove(to);
        }
    }

    /** Writes the chunks in order, each no earlier than its due time (the delay is the fault being injected). */
    private void drain(BlockingQueue<Chunk> queue, Socket to, Socket from) {
        try {
            OutputStream out = to.getOutputStream();
            while (true) {
                Chunk chunk = queue.poll(120, TimeUnit.SECONDS);
                if (chunk == null || chunk.bytes == null) {
                    return;
                }
                long wait = chunk.dueNanos - System.nanoTime();
                if (wait > 0) {
                    TimeUnit.NANOSECONDS.sleep(wait);
                }
                out.write(chunk.bytes);
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            closeQuietly(from);
        }
    }

    private void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
        } catch (IOException ignored) {
            // already closed
        }
        resets.incrementAndGet();
        closeQuietly(socket);
        open.remove(socket);
    }

    private static Thread start(Runnable body, String name) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // nothing to do
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        for (Socket socket : open) {
            closeQuietly(socket);
        }
    }

    private record Chunk(byte @Nullable [] bytes, long dueNanos) {
    }
}
