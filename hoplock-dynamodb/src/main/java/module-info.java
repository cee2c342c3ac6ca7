/**
 * The DynamoDB store for hoplock ({@link dev.hoplock.dynamodb}), over the AWS SDK v2 (automatic modules). Exports its
 * one package; it reads hoplock-core's API only.
 */
module dev.hoplock.dynamodb {
    requires transitive dev.hoplock.core;
    requires transitive software.amazon.awssdk.services.dynamodb;
    requires transitive software.amazon.awssdk.auth;
    requires transitive software.amazon.awssdk.awscore;
    requires transitive software.amazon.awssdk.core;
    requires transitive software.amazon.awssdk.http;
    requires transitive software.amazon.awssdk.regions;
    requires software.amazon.awssdk.http.urlconnection;
    requires org.slf4j;

    exports dev.hoplock.dynamodb;
}
