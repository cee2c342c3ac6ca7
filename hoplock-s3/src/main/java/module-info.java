/**
 * The S3 store for hoplock ({@link dev.hoplock.s3}), over the AWS SDK v2 (automatic modules). Exports its one package;
 * it reads hoplock-core's API only.
 */
module dev.hoplock.s3 {
    requires transitive dev.hoplock.core;
    requires transitive software.amazon.awssdk.services.s3;
    requires transitive software.amazon.awssdk.auth;
    requires transitive software.amazon.awssdk.awscore;
    requires transitive software.amazon.awssdk.core;
    requires transitive software.amazon.awssdk.http;
    requires transitive software.amazon.awssdk.regions;
    requires software.amazon.awssdk.http.urlconnection;
    requires org.slf4j;

    exports dev.hoplock.s3;
}
