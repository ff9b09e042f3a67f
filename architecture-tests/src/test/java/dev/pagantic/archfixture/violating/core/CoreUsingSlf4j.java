package dev.pagantic.archfixture.violating.core;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Breaks "core depends only on the JDK": it uses a third-party library (SLF4J). */
public final class CoreUsingSlf4j {

    private final Logger log = LoggerFactory.getLogger(CoreUsingSlf4j.class);

    public void report(String text) {
        log.info(text);
    }
}
