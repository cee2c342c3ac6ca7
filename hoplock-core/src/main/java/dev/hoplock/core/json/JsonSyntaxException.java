package dev.hoplock.core.json;

/**
 * Thrown by {@link Json#parse} when its input is not exactly one JSON value: says what was wrong ({@link #reason()})
 * and where ({@link #position()}, the index of the character in the input), both also in the message.
 */
public final class JsonSyntaxException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String reason;
    private final int position;

    /** What was wrong, such as "expected a digit". */
    public String reason() {
        return reason;
    }

    /** The index in the input where it went wrong. */
    public int position() {
        return position;
    }

    JsonSyntaxException(String reason, int position) {
        super("invalid JSON at character " + position + ": " + reason);
        this.reason = reason;
        this.position = position;
    }
}
