package dev.pagantic.archfixture.violating.adapter.spring;

import dev.pagantic.archfixture.violating.adapter.cli.CliWiringOnly;

/** Accepted by "adapters do not depend on each other": the Spring Boot starter may put adapters together. */
public final class SpringAssemblingTheCli {

    public Object cli() {
        return new CliWiringOnly();
    }
}
