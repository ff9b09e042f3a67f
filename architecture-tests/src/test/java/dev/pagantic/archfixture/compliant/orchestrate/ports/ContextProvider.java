package dev.pagantic.archfixture.compliant.orchestrate.ports;

import dev.pagantic.archfixture.compliant.core.Message;
import java.util.List;

/** A port that orchestrate declares and a band type plugs into by method reference. */
@FunctionalInterface
public interface ContextProvider {

    List<Message> provide(String query);
}
