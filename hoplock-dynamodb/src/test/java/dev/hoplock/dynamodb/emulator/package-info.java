/**
 * The test harness of the DynamoDB store: dynalite installed from npm and started in memory on a free loopback port,
 * and its JUnit extension. Published in this module's test-jar for other modules' tests.
 */
@NullMarked
package dev.hoplock.dynamodb.emulator;

import org.jspecify.annotations.NullMarked;
