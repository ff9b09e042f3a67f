package dev.pagantic.archfixture.violating.memory.policy;

import dev.pagantic.archfixture.violating.memory.store.StoreUsingPolicy;

/** The other half of the package cycle between memory.store and memory.policy. */
public final class PolicyUsingStore {

    public boolean allows(StoreUsingPolicy store, String entry) {
        return store != null && !entry.isEmpty();
    }
}
