package dev.hoplock.nats.server;

import org.jspecify.annotations.Nullable;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy in front of a nats-server that speaks enough of the NATS client protocol to drop message headers: every
 * {@code HPUB} from the client has the headers that {@code dropHeader} selects removed (the sizes rewritten), and
 * everything else passes unchanged in both directions. It stands for a server, bucket or proxy that ignores the
 * expected-revision headers ({@code Nats-Expected-Last-Subject-Sequence}), a store on which two processes could both
 * take one lease. {@link #stripped()} counts the headers dropped, so a test can show the proxy did its part.
 */
public final class HeaderStrippingProxy implements AutoCloseable {

    /** Which header lines of one message to drop: the header's name, its value, and all the message's header lines. */
    @FunctionalInterface
    public interface HeaderFilter {
        boolean drop(String name, String value, List<String> allLines);
    }

    /** Drops every {@code Nats-Expected-*} header. */
    public static final HeaderFilter ALL_EXPECTATIONS = (name, value, all) -> expectation(name);

    /** Drops {@code Nats-Expected-Last-Subject-Sequence: 0} only, as a server that reads 0 as "no condition" would. */
    public static final HeaderFilter EXPECTED_ZERO = (name, value, all) ->
            name.equalsIgnoreCase("Nats-Expected-Last-Subject-Sequence") && value.equals("0");

    /** Drops the expectations of delete markers ({@code KV-Operation: DEL}) only. */
    public static final HeaderFilter DELETE_EXPECTATIONS = (name, value, all) -> expectation(name)
            && all.stream().anyMatch(line -> line.toLowerCase(Locale.ROOT).replace(" ", "").equals("kv-operation:del"));

    private final ServerSocket listener;
    private final int target;
    private final HeaderFilter filter;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final AtomicInteger stripped = new AtomicInteger();
    private final Thread acceptor;

    private HeaderStrippingProxy(int target, HeaderFilter filter) throws IOException {
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.target = target;
        this.filter = filter;
        this.acceptor = new Thread(this::accept, "nats-proxy-" + listener.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A proxy on a free loopback port in front of {@code server}, dropping what {@code filter} selects. */
    public static HeaderStrippingProxy start(NatsServer server, HeaderFilter filter) throws IOException {
        return new HeaderStrippingProxy(server.port(), filter);
    }

    /** {@code nats://127.0.0.1:<proxy port>}. */
    public String url() {
        return "nats://127.0.0.1:" + listener.getLocalPort();
    }

    /** The number of header lines dropped so far. */
    public int stripped() {
        return stripped.get();
    }

    private static boolean expectation(String name) {
        return name.toLowerCase(Locale.ROOT).startsWith("nats-expected-");
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), target);
                sockets.add(client);
                sockets.add(server);
                pump("to-client", () -> copy(server.getInputStream(), client.getOutputStream()), client, server);
                pump("to-server", () -> rewrite(client.getInputStream(), server.getOutputStream()), client, server);
            } catch (IOException closed) {
                return;
            }
        }
    }

    private interface Pump {
        void run() throws IOException;
    }

    private void pump(String name, Pump pump, Socket a, Socket b) {
        Thread thread = new Thread(() -> {
            try {
                pump.run();
            } catch (IOException ignored) {
                // a side closed
            } finally {
                closeQuietly(a);
                closeQuietly(b);
            }
        }, "nats-proxy-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    private static void copy(InputStream in, OutputStream out) throws IOException {
        byte[] buffer = new byte[8192];
        int n;
        while ((n = in.read(buffer)) >= 0) {
            out.write(buffer, 0, n);
            out.flush();
        }
    }

    /** Client to server: protocol lines as they are, {@code PUB} payloads as they are, {@code HPUB} headers filtered. */
    private void rewrite(InputStream raw, OutputStream out) throws IOException {
        InputStream in = new BufferedInputStream(raw);
        String line;
        while ((line = readLine(in)) != null) {
            String[] parts = line.split(" +");
            String op = parts[0].toUpperCase(Locale.ROOT);
            if (op.equals("PUB")) {
                int size = Integer.parseInt(parts[parts.length - 1]);
                out.write((line + "\r\n").getBytes(StandardCharsets.UTF_8));
                out.write(in.readNBytes(size + 2));
            } else if (op.equals("HPUB")) {
                int headerSize = Integer.parseInt(parts[parts.length - 2]);
                int totalSize = Integer.parseInt(parts[parts.length - 1]);
                String headers = new String(in.readNBytes(headerSize), StandardCharsets.UTF_8);
                byte[] payload = in.readNBytes(totalSize - headerSize + 2);
                byte[] kept = filter(headers).getBytes(StandardCharsets.UTF_8);
                StringBuilder command = new StringBuilder("HPUB");
                for (int i = 1; i < parts.length - 2; i++) {
                    command.append(' ').append(parts[i]);
                }
                command.append(' ').append(kept.length).append(' ').append(kept.length + payload.length - 2)
                        .append("\r\n");
                out.write(command.toString().getBytes(StandardCharsets.UTF_8));
                out.write(kept);
                out.write(payload);
            } else {
                out.write((line + "\r\n").getBytes(StandardCharsets.UTF_8));
            }
            out.flush();
        }
    }

    private String filter(String headers) {
        String[] lines = headers.split("\r\n", -1);
        List<String> all = List.of(lines).subList(1, lines.length);
        StringBuilder kept = new StringBuilder(lines[0]).append("\r\n"); // NATS/1.0
        for (String header : all) {
            if (header.isEmpty()) {
                continue;
            }
            int colon = header.indexOf(':');
            String name = colon < 0 ? header : header.substring(0, colon).strip();
            String value = colon < 0 ? "" : header.substring(colon + 1).strip();
            if (filter.drop(name, value, all)) {
                stripped.incrementAndGet();
            } else {
                kept.append(header).append("\r\n");
            }
        }
        return kept.append("\r\n").toString();
    }

    private static @Nullable String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                int length = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, length, StandardCharsets.UTF_8);
            }
            line.write(b);
        }
        return null;
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    /** Stops listening and closes every connection. */
    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
        try {
            acceptor.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
