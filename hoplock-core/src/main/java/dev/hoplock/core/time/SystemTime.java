package dev.hoplock.core.time;

import java.time.Instant;

/** The machine's clocks: {@link System#currentTimeMillis()}-based wall time and {@link System#nanoTime()}. */
final class SystemTime implements TimeSource {

    static final SystemTime INSTANCE = new SystemTime();

    private SystemTime() {
    }

    @Override
    public Instant wallNow() {
        return Instant.now();
    }

    @Override
    public long wallMillis() {
        return System.currentTimeMillis();
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }
}
