package dev.hoplock.nats;

/**
 * One request of a backend call, described for messages: what it is for ({@code "the read of 'leader' in bucket
 * 'hoplock'"}), the permission it needs ({@code "publish to $JS.API.STREAM.MSG.GET.KV_hoplock"}), and whether it
 * changes the store (then a request without an answer has an unknown outcome). Never contains a secret.
 *
 * @param what       the request in words, for the start of a message
 * @param subject    the subject the request is sent to
 * @param permission the permission it needs, in NATS terms
 * @param change     true for a write or delete of a lease (or a change of the bucket)
 */
record NatsCall(String what, String subject, String permission, boolean change) {

    static NatsCall api(String what, String subject) {
        return new NatsCall(what, subject, "publish to " + subject, false);
    }

    static NatsCall apiChange(String what, String subject) {
        return new NatsCall(what, subject, "publish to " + subject, true);
    }

    static NatsCall leaseWrite(String what, String subject, String keySubjects) {
        return new NatsCall(what, subject, "publish to " + keySubjects, true);
    }
}
