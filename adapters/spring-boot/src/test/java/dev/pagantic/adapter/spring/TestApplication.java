package dev.pagantic.adapter.spring;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/** The smallest Spring Boot application: auto-configuration only, so each test's properties decide everything. */
@SpringBootConfiguration
@EnableAutoConfiguration
class TestApplication {
}
