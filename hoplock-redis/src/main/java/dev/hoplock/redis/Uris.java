package dev.hoplock.redis;

/** URI text for messages. */
final class Uris {

    private Uris() {
    }

    /** {@code scheme://user:password@host} without its user part, so that no credential reaches a message. */
    static String withoutUserInfo(String uri) {
        String shown = uri.replaceAll("//[^/@]*@", "//").replaceAll(",[^,/@]*@", ",");
        int at = shown.lastIndexOf('@');
        return at < 0 ? shown : "***@" + shown.substring(at + 1);
    }
}
