"""Players that learn: expert iteration for every game through the contract.

Self-play by the searcher (``selfplay``) fills a replay buffer on disk (``buffer``);
the network is trained on it in JAX (``net``, the only module that needs the
``learn`` extra); each generation's network is gated against the last one with the
harness (``train``).  Playing with a trained network needs numpy alone
(``search.model``).  docs/learning.md tells the whole story."""
