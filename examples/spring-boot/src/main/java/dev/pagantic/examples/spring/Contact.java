package dev.pagantic.examples.spring;

import java.util.Optional;

/**
 * The contact details found in a customer's message: the record the extraction endpoint returns. Its JSON Schema is
 * derived from the record (pagantic-types), the model's output is constrained by it and validated against it.
 *
 * @param name    the customer's name
 * @param email   the customer's e-mail address
 * @param orderId the order the message is about, when it names one
 */
public record Contact(String name, String email, Optional<String> orderId) {
}
