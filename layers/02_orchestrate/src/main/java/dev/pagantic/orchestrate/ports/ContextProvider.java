package dev.pagantic.orchestrate.ports;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Message;
import java.util.List;

/**
 * The context port: the messages holding the context relevant to a query. The context layer's
 * {@code ContextBuilder} has exactly this shape and plugs in by method reference, without the context layer importing
 * this one:
 * <pre>{@code
 * ContextProvider provider = contextBuilder::build;
 * }</pre>
 * An empty list means that nothing relevant was found.
 */
@FunctionalInterface
public interface ContextProvider {

    /**
     * The context messages for the query.
     *
     * @param ctx   the call context
     * @param query what the context should be relevant to
     * @return the messages to inject, possibly none; never null
     */
    List<Message> build(CallContext ctx, String query);
}
