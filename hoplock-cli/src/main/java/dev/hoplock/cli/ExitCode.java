package dev.hoplock.cli;

/**
 * The exit codes of {@code hoplock-cli}, stable for scripts.
 *
 * <ul>
 *   <li>{@code 0} {@link #OK}: {@code show} read the key (whatever it found, also a corrupt record or none);
 *       {@code release} wrote the released record, or there was nothing to release (absent or already released).</li>
 *   <li>{@code 2} {@link #USAGE}: the command line is wrong (unknown command or option, no key, an invalid key or
 *       duration); the message says what and the usage follows.</li>
 *   <li>{@code 3} {@link #CONFIGURATION}: the store could not be built from the settings (no store chosen, a store
 *       module's setting missing or wrong); the message is the starter's own.</li>
 *   <li>{@code 4} {@link #STORE_FAILED}: the store did not answer a read (nothing was written), or did not answer the
 *       release's write (its outcome is unknown: run {@code show} again).</li>
 *   <li>{@code 5} {@link #REFUSED}: {@code release} refused and wrote nothing (the record changed while it was
 *       observed: a live holder; a corrupt record; an expiry far ahead without {@code --trust-ttl}; a store that does
 *       not honour conditional writes), or the store refused the conditional write (the record changed after the last
 *       read).</li>
 * </ul>
 */
public final class ExitCode {

    public static final int OK = 0;
    public static final int USAGE = 2;
    public static final int CONFIGURATION = 3;
    public static final int STORE_FAILED = 4;
    public static final int REFUSED = 5;

    private ExitCode() {
    }
}
