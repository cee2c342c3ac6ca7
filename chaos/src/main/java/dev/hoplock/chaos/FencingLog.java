package dev.hoplock.chaos;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A fenced shared log on 127.0.0.1: the downstream system that leader work writes to. It accepts an append only if
 * its generation (the fencing token) is not lower than the highest generation it has accepted for the same resource
 * (the elector's one resource, a lock name or a key), so a deposed holder's late write is refused once the new holder
 * has written. Every attempt, accepted or not, is kept with the writer's
 * monotonic readings just before and just after the {@code isLeader() == true} check that allowed it (all processes
 * run on this machine, so {@link System#nanoTime()} is one clock for all of them), and written to a CSV file.
 *
 * <p>Protocol, one line each way: {@code APPEND <owner> <generation> <beforeNanos> <afterNanos> [<resource>]} (without
 * a resource: {@value Primitive#ELECTOR_RESOURCE}) answered by {@code OK} or {@code STALE <highest>}.
 */
final class FencingLog implements WriteHistory, AutoCloseable {

    /** One append attempt as the log (or the database) saw it: a write to {@code resource} with token {@code generation}. */
    record Attempt(String resource, String owner, long generation, long beforeNanos, long afterNanos, long receivedNanos,
                   boolean accepted) {
    }

    private final ServerSocket server;
    private final List<Attempt> attempts = new ArrayList<>();
    private final List<Socket> clients = new ArrayList<>();
    private final PrintWriter csv;
    private final Map<String, Long> highest = new HashMap<>();
    private volatile boolean closed;

    FencingLog(Path csvFile) throws IOException {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.csv = new PrintWriter(Files.newBufferedWriter(csvFile, StandardCharsets.UTF_8));
        csv.println("received_nanos,resource,owner,generation,check_before_nanos,check_after_nanos,accepted");
        Thread acceptor = new Thread(this::acceptLoop, "fencing-log-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return server.getLocalPort();
    }

    @Override
    public synchronized List<Attempt> attempts() {
        return List.copyOf(attempts);
    }

    @Override
    public synchronized long firstAcceptedAfter(long sinceNanos) {
        return attempts.stream().filter(a -> a.accepted() && a.receivedNanos() > sinceNanos)
                .mapToLong(Attempt::receivedNanos).findFirst().orElse(-1);
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket socket = server.accept();
                synchronized (this) {
                    clients.add(socket);
                }
                Thread reader = new Thread(() -> serve(socket), "fencing-log-client");
                reader.setDaemon(true);
                reader.start();
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("fencing log: accept failed: " + e);
                }
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket;
             BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
             PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(socket.getOutputStream(),
                     StandardCharsets.UTF_8)), true)) {
            String line;
            while ((line = in.readLine()) != null) {
                String[] f = line.split(" ");
                if (f.length < 5 || f.length > 6 || !f[0].equals("APPEND")) {
                    out.println("ERROR expected: APPEND <owner> <generation> <beforeNanos> <afterNanos> [<resource>]");
                    continue;
                }
                out.println(append(f.length == 6 ? f[5] : Primitive.ELECTOR_RESOURCE, f[1], Long.parseLong(f[2]),
                        Long.parseLong(f[3]), Long.parseLong(f[4])));
            }
        } catch (SocketException closedByPeer) {
            // a killed writer
        } catch (IOException | RuntimeException e) {
            if (!closed) {
                System.err.println("fencing log: client failed: " + e);
            }
        }
    }

    private synchronized String append(String resource, String owner, long generation, long before, long after) {
        long received = System.nanoTime();
        long current = highest.getOrDefault(resource, 0L);
        boolean accepted = generation >= current;
        if (accepted) {
            highest.put(resource, generation);
        }
        attempts.add(new Attempt(resource, owner, generation, before, after, received, accepted));
        csv.println(received + "," + resource + "," + owner + "," + generation + "," + before + "," + after + ","
                + accepted);
        return accepted ? "OK" : "STALE " + highest.get(resource);
    }

    @Override
    public synchronized void close() throws IOException {
        closed = true;
        server.close();
        for (Socket client : clients) {
            client.close();
        }
        csv.close();
    }
}
