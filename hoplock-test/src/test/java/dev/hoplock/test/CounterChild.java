package dev.hoplock.test;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.FilesystemBackend;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A child JVM for {@link FilesystemBackendTest}: increments a decimal counter under one key by read + compare-and-swap,
 * retrying lost races, until it has made the requested number of successful increments.
 *
 * <p>Protocol on stdin/stdout: prints {@code READY}, waits for the line {@code GO}, works, then prints
 * {@code DONE <successful increments> <lost races>}. Arguments: directory, key, increments.
 */
public final class CounterChild {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private CounterChild() {
    }

    public static void main(String[] args) throws Exception {
        Backend backend = new FilesystemBackend(Path.of(args[0]));
        String key = args[1];
        int increments = Integer.parseInt(args[2]);
        backend.read(key, TIMEOUT);

        System.out.println("READY");
        System.out.flush();
        BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line = stdin.readLine();
        if (!"GO".equals(line)) {
            throw new IllegalStateException("expected GO on stdin, got " + line);
        }

        int done = 0;
        int lost = 0;
        while (done < increments) {
            StoredObject current = backend.read(key, TIMEOUT)
                    .orElseThrow(() -> new IllegalStateException("counter " + key + " is missing"));
            long value = Long.parseLong(new String(current.content(), StandardCharsets.UTF_8));
            byte[] next = Long.toString(value + 1).getBytes(StandardCharsets.UTF_8);
            if (backend.write(key, current.handle(), next, TIMEOUT) instanceof WriteResult.Written) {
                done++;
            } else {
                lost++;
            }
        }
        System.out.println("DONE " + done + " " + lost);
        System.out.flush();
    }
}
