package dev.hoplock.redis.server;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A minimal RESP2 client for the tests' administration of their servers ({@code ACL SETUSER}, {@code REPLICAOF},
 * {@code SENTINEL ...}, {@code HGET}): independent of Lettuce, so that what a test sets up or looks at does not depend
 * on the client under test. One command per connection; answers are a String, a Long, a List or null; an error
 * answer is thrown as {@link IllegalStateException} with the server's text.
 */
public final class RawRedis {

    private RawRedis() {
    }


    /** Sends {@code args} after {@code AUTH} (when {@code password} is not null) and {@code SELECT database}. */
    public static Object commandAs(int port, String password, int database, String... args) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            if (password != null) {
                write(out, "AUTH", password);
                read(in);
            }
            if (database != 0) {
                write(out, "SELECT", Integer.toString(database));
                read(in);
            }
            write(out, args);
            return read(in);
        }
    }

    /** Sends {@code args} to {@code 127.0.0.1:port} (database 0, no password). */
    public static Object command(int port, String... args) throws IOException {
        return commandAs(port, null, 0, args);
    }

    /** The bytes of a bulk answer (HGET), or null. */
    public static byte[] bytes(int port, String... args) throws IOException {
        Object answer = command(port, args);
        return answer == null ? null : ((String) answer).getBytes(StandardCharsets.ISO_8859_1);
    }

    private static void write(OutputStream out, String... args) throws IOException {
        StringBuilder command = new StringBuilder("*").append(args.length).append("\r\n");
        for (String arg : args) {
            byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
            command.append('$').append(bytes.length).append("\r\n")
                    .append(new String(bytes, StandardCharsets.ISO_8859_1)).append("\r\n");
        }
        out.write(command.toString().getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    private static Object read(InputStream in) throws IOException {
        int type = in.read();
        String line = line(in);
        switch (type) {
            case '+':
                return line;
            case '-':
                throw new IllegalStateException(line);
            case ':':
                return Long.parseLong(line);
            case '$': {
                int length = Integer.parseInt(line);
                if (length < 0) {
                    return null;
                }
                byte[] bytes = in.readNBytes(length + 2);
                return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
            }
            case '*': {
                int count = Integer.parseInt(line);
                if (count < 0) {
                    return null;
                }
                List<Object> items = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    try {
                        items.add(read(in));
                    } catch (IllegalStateException error) {
                        items.add(error);
                    }
                }
                return items;
            }
            default:
                throw new IOException("not a RESP answer: " + (char) type + line);
        }
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\r') {
                in.read();
                break;
            }
            line.append((char) c);
        }
        return line.toString();
    }
}
