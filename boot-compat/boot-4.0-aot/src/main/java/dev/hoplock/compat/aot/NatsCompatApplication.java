package dev.hoplock.compat.aot;

/** The compatibility application over NATS JetStream ({@code hoplock.backend=nats}), as processed by Spring AOT. */
public final class NatsCompatApplication {

    private NatsCompatApplication() {
    }

    /** Starts the application over NATS JetStream. */
    public static void main(String[] args) {
        AotStoreApplication.run(NatsCompatApplication.class, "nats", args);
    }
}
