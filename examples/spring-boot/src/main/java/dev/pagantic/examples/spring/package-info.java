/**
 * A Spring Boot application on the pagantic starter: the orchestrator, its engine and its tools come from
 * {@code application.yml} and the context ({@link dev.pagantic.examples.spring.OrderTools} is found by its
 * {@code @Tool} method); {@link dev.pagantic.examples.spring.SupportController} sends each HTTP request through the
 * facade, a chat turn in chat mode and an extraction in structured mode with the schema of a record.
 */
package dev.pagantic.examples.spring;
