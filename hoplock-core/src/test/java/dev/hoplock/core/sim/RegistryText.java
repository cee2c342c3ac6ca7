package dev.hoplock.core.sim;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The group registry as the membership simulation reads it from the store, for traces and diagnoses: the epoch and,
 * per member, id, owner (process), lease generation and acknowledged epoch, and the incarnation id ({@code ""} when the
 * record has no incarnation line). Read from the documented text format
 * ({@code hoplock-registry 1}, see {@code dev.hoplock.core.ownership.Registry}), not through the engine's own parser,
 * so that a diagnosis does not share a defect of the code it diagnoses. Lines it does not know are skipped.
 */
record RegistryText(long epoch, String incarnation, List<Entry> entries) {

    /** One member line. */
    record Entry(String id, String owner, long generation, long ack) {
    }

    static RegistryText parse(byte[] content) {
        long epoch = -1;
        String incarnation = "";
        List<Entry> entries = new ArrayList<>();
        for (String line : new String(content, StandardCharsets.UTF_8).split("\n")) {
            String[] f = line.split(" ");
            try {
                if (f[0].equals("epoch") && f.length == 2) {
                    epoch = Long.parseLong(f[1]);
                } else if (f[0].equals("incarnation") && f.length == 3) {
                    incarnation = decode(f[1]);
                } else if (f[0].equals("member") && f.length == 7) {
                    entries.add(new Entry(decode(f[4]), decode(f[5]), Long.parseLong(f[2]), Long.parseLong(f[1])));
                }
            } catch (NumberFormatException e) {
                // Skipped: a trace shows what it can.
            }
        }
        return new RegistryText(epoch, incarnation, List.copyOf(entries));
    }

    Entry entry(String id) {
        for (Entry e : entries) {
            if (e.id().equals(id)) {
                return e;
            }
        }
        return null;
    }

    /** The member ids, sorted. */
    List<String> ids() {
        return entries.stream().map(Entry::id).sorted().toList();
    }

    private static String decode(String text) {
        return text.equals("~") ? "" : URLDecoder.decode(text, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder("epoch ").append(epoch);
        for (Entry e : entries) {
            out.append(" [").append(e.id()).append(' ').append(e.owner()).append(" gen ").append(e.generation())
                    .append(" ack ").append(e.ack()).append(']');
        }
        return out.toString();
    }
}
