import { createContext, useMemo, useRef } from 'react';

/**
 * A condition builder on a form: the rules it shows that §5.4 leaves out of the stored condition
 * (incomplete), and a way to take them off the screen once the save has dropped them.
 */
export interface IncompleteRulesSource {
  /** The field (`var`, §3.9) of each rule not stored. */
  incomplete(): string[];
  /** Shows what was stored: the incomplete rules go. */
  settle(): void;
}

export interface IncompleteRulesRegistry {
  register(source: IncompleteRulesSource): () => void;
}

/** Set by a form whose condition builders should tell it what a save drops. */
export const IncompleteRulesContext = createContext<IncompleteRulesRegistry | null>(null);

/** The form's side: a registry for its builders, and what they would drop right now. */
export function useIncompleteRules() {
  const sources = useRef(new Set<IncompleteRulesSource>());
  return useMemo(
    () => ({
      registry: {
        register(source: IncompleteRulesSource) {
          sources.current.add(source);
          return () => {
            sources.current.delete(source);
          };
        },
      } satisfies IncompleteRulesRegistry,
      /** The fields of every incomplete rule shown, and how to clear them all once saved. */
      collect() {
        const all = [...sources.current];
        return {
          fields: all.flatMap((source) => source.incomplete()),
          settle: () => {
            for (const source of all) source.settle();
          },
        };
      },
    }),
    [],
  );
}
