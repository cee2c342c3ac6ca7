package dev.hoplock.samples.readme;

import dev.hoplock.spring.leader.LeaderOnly;
import org.springframework.stereotype.Service;

import java.util.Optional;

/** Leader-only work of the existing application: issue the invoices of the day, on one instance only. */
@Service
public class InvoiceRun {

    /** Issues the invoices; empty when this instance does not lead (the call was skipped). */
    @LeaderOnly
    public Optional<String> issueInvoices() {
        return Optional.of("issued");
    }
}
