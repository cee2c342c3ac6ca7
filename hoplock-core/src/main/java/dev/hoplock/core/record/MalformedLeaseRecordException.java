package dev.hoplock.core.record;

/**
 * The bytes under a lease key are not a lease record this library can trust. The message says what is wrong
 * (not JSON, wrong type of a field, too large, ...) and never echoes more than a short prefix of the content.
 */
public class MalformedLeaseRecordException extends Exception {

    private static final long serialVersionUID = 1L;

    public MalformedLeaseRecordException(String message) {
        super(message);
    }
}
