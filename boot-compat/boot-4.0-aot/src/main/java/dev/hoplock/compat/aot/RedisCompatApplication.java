package dev.hoplock.compat.aot;

/** The compatibility application over Redis ({@code hoplock.backend=redis}), as processed by Spring AOT. */
public final class RedisCompatApplication {

    private RedisCompatApplication() {
    }

    /** Starts the application over Redis. */
    public static void main(String[] args) {
        AotStoreApplication.run(RedisCompatApplication.class, "redis", args);
    }
}
