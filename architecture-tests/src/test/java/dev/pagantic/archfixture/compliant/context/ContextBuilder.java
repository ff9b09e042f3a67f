package dev.pagantic.archfixture.compliant.context;

import dev.pagantic.archfixture.compliant.core.Message;
import dev.pagantic.archfixture.compliant.core.Role;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A band component using a third-party library (SLF4J) and core; the static final Logger is the accepted idiom
 * (a logger is not a collection, array or atomic).
 */
public final class ContextBuilder {

    private static final Logger LOG = LoggerFactory.getLogger(ContextBuilder.class);

    public List<Message> build(String query) {
        LOG.debug("building context for {}", query);
        return List.of(new Message(Role.SYSTEM, "context for " + query));
    }
}
