package dev.hoplock.core;

import dev.hoplock.core.election.Elector;

import org.jspecify.annotations.Nullable;

/**
 * An elector setting, or a combination of settings, that cannot work. It carries what a configuration layer needs to
 * report the fault in its own terms without reading the message: {@link #setting()} names the setting (as in
 * {@link Elector.Builder}), {@link #rejectedValue()} the value refused and {@link #limit()} the bound it broke, and
 * {@link #reason()} says why in words. The message is for people reading a stack trace and is not parsed.
 *
 * <p>Nullness: {@link #rejectedValue()} and {@link #limit()} are null when not known (the message-only constructor,
 * or a setting that has no single bound, such as a malformed key).
 */
public class InvalidSettingException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String setting;
    private final transient @Nullable Object rejectedValue;
    private final transient @Nullable Object limit;
    private final String reason;

    /**
     * A refusal stated in words only: {@link #rejectedValue()} and {@link #limit()} are null and {@link #reason()} is
     * the message.
     */
    public InvalidSettingException(String setting, String message) {
        this(setting, null, null, message, message);
    }

    /**
     * A refusal with its parts as fields.
     *
     * @param setting       the builder setting at fault, for example {@code renewInterval}
     * @param rejectedValue the value refused, or null if none is known
     * @param limit         the bound it broke (for example the longest renew interval the TTL allows), or null
     * @param reason        why, in words, without the setting's name (for example {@code "must be shorter than ttl
     *                      minus safetyMargin"})
     * @param message       the exception message (kept as the core has always written it)
     */
    public InvalidSettingException(String setting, @Nullable Object rejectedValue, @Nullable Object limit, String reason,
                                   String message) {
        super(message);
        this.setting = setting;
        this.rejectedValue = rejectedValue;
        this.limit = limit;
        this.reason = reason;
    }

    /** The builder setting at fault, for example {@code renewInterval}. */
    public String setting() {
        return setting;
    }

    /** The value refused (a {@link java.time.Duration}, a String, ...), or null when not known. */
    public @Nullable Object rejectedValue() {
        return rejectedValue;
    }

    /** The bound the value broke, or null when there is no single bound or it is not known. */
    public @Nullable Object limit() {
        return limit;
    }

    /** Why the value was refused, in words; the message itself for the message-only constructor. */
    public String reason() {
        return reason;
    }
}
