package dev.pagantic.archfixture.violating.context;

import java.util.List;

/** A plain context type that other fixtures use. */
public interface Retriever {

    List<String> retrieve(String query);
}
