package dev.pagantic.examples.spring;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A customer-support service on the pagantic starter: {@code POST /chat} is a tool-calling chat per session (the
 * model may look orders up through {@link OrderTools}), {@code POST /extract} turns a message into a {@link Contact}
 * record. The engine, system prompt and limits come from {@code application.yml}; see the README.
 */
@SpringBootApplication
public class SupportApplication {

    public static void main(String[] args) {
        SpringApplication.run(SupportApplication.class, args);
    }
}
