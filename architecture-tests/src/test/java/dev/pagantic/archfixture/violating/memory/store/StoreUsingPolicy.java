package dev.pagantic.archfixture.violating.memory.store;

import dev.pagantic.archfixture.violating.memory.policy.PolicyUsingStore;

/** Half of a package cycle: memory.store uses memory.policy, which uses memory.store. */
public final class StoreUsingPolicy {

    private final PolicyUsingStore policy = new PolicyUsingStore();

    public boolean keeps(String entry) {
        return policy.allows(this, entry);
    }
}
