/**
 * The service's contract as types, generated from /openapi.json by clients/typescript/scripts/generate.ts
 * (openapi-typescript). Do not edit: run the script again.
 */

export interface paths {
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Service state, batch date and record count (public); 503 when it cannot serve keyed data requests
         * @description Service state, batch date and record count (public); 503 when it cannot serve keyed data requests. No API key.
         */
        get: operations["public.health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/livez": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness: the process answers (restart it when this fails)
         * @description Liveness: the process answers (restart it when this fails). No API key.
         */
        get: operations["public.livez"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness: 200 when it can serve the fleet's current batch now, 503 with the reasons when not (take it out of rotation)
         * @description Readiness: 200 when it can serve the fleet's current batch now, 503 with the reasons when not (take it out of rotation). No API key.
         */
        get: operations["public.readyz"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/key/info": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Verify a key: tier, quota and today's use (consumes no quota)
         * @description Verify a key: tier, quota and today's use (consumes no quota). Needs an API key (X-Api-Key header). Takes no query parameter: one in the request is refused with 422 naming it.
         */
        get: operations["key.keyInfo"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/asset_providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * All fund administrators (AGF); with scope=all also FI/ETF administrators
         * @description All fund administrators (AGF); with scope=all also FI/ETF administrators. Needs an API key (X-Api-Key header). Query parameters: `scope`, `batch`; any other is refused with 422 naming it.
         */
        get: operations["catalog.providers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/asset_providers/{provider_id}/conceptual_assets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Current mutual funds of an administrator
         * @description Current mutual funds of an administrator. Needs an API key (X-Api-Key header). Query parameters: `batch`; any other is refused with 422 naming it.
         */
        get: operations["catalog.conceptualAssets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conceptual_assets/{concept_id}/real_assets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * All series of a fund with their latest quota value
         * @description All series of a fund with their latest quota value. Needs an API key (X-Api-Key header). Query parameters: `batch`; any other is refused with 422 naming it.
         */
        get: operations["catalog.realAssets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/real_assets/{asset_id}/days": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Daily quota values of a series, ascending, from from_date to to_date (both inclusive)
         * @description Daily quota values of a series, ascending, from from_date to to_date (both inclusive). Needs an API key (X-Api-Key header). Query parameters: `from_date`, `to_date`, `format`, `batch`; any other is refused with 422 naming it.
         */
        get: operations["catalog.days"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/real_assets/{asset_id}/returns": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Returns of a series over eight windows, as decimal fractions, at any past cutoff
         * @description Returns of a series over eight windows, as decimal fractions, at any past cutoff. Needs an API key (X-Api-Key header). Query parameters: `as_of_date`, `valuation`, `return_basis`, `batch`; any other is refused with 422 naming it.
         */
        get: operations["returns.returns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/real_assets/{asset_id}/risk_metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Latest risk snapshot of a series; unavailable_reason when it cannot be computed
         * @description Latest risk snapshot of a series; unavailable_reason when it cannot be computed. Needs an API key (X-Api-Key header). Query parameters: `batch`; any other is refused with 422 naming it.
         */
        get: operations["returns.riskMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/real_assets/{asset_id}/expense_ratio": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * TAC of a series as a decimal fraction; null when none is documented
         * @description TAC of a series as a decimal fraction; null when none is documented. Needs an API key (X-Api-Key header). Query parameters: `batch`; any other is refused with 422 naming it.
         */
        get: operations["returns.expenseRatio"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/real_assets/{asset_id}/expense_ratio/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Monthly TAC history of a series; an empty list when none
         * @description Monthly TAC history of a series; an empty list when none. Needs an API key (X-Api-Key header). Query parameters: `from_date`, `batch`; any other is refused with 422 naming it.
         */
        get: operations["returns.expenseRatioHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/all-funds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * All active funds with price, daily and monthly change (decimal fractions) and TAC
         * @description All active funds with price, daily and monthly change (decimal fractions) and TAC. Needs an API key (X-Api-Key header). Query parameters: `category`, `fund_family`, `date`, `article107_regulation_status`, `vehicle`, `universe`, `batch`; any other is refused with 422 naming it.
         */
        get: operations["market.allFunds"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/market-summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * AFM families as indices (per currency, weighted by opening patrimony) and top movers
         * @description AFM families as indices (per currency, weighted by opening patrimony) and top movers. Needs an API key (X-Api-Key header). Query parameters: `date`, `universe`, `batch`; any other is refused with 422 naming it.
         */
        get: operations["market.marketSummary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/families/{family_rar}/index": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A family's precomputed index, base 100, per currency (empty with available=false when none)
         * @description A family's precomputed index, base 100, per currency (empty with available=false when none). Needs an API key (X-Api-Key header). Query parameters: `currency`, `from_date`, `batch`; any other is refused with 422 naming it.
         */
        get: operations["market.familyIndex"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/benchmarks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Catalog of active benchmarks (family → symbol, index, currency)
         * @description Catalog of active benchmarks (family → symbol, index, currency). Needs an API key (X-Api-Key header). Query parameters: `batch`; any other is refused with 422 naming it.
         */
        get: operations["market.benchmarks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/benchmarks/{family_rar}/prices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Raw benchmark closes of a family in native currency (has_benchmark=false when none)
         * @description Raw benchmark closes of a family in native currency (has_benchmark=false when none). Needs an API key (X-Api-Key header). Query parameters: `from_date`, `batch`; any other is refused with 422 naming it.
         */
        get: operations["market.benchmarkPrices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agf_stats/ranking": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Administrators ranked by patrimony (CLP) or shareholders at a date
         * @description Administrators ranked by patrimony (CLP) or shareholders at a date. Needs an API key (X-Api-Key header). Query parameters: `metric`, `date`, `batch`; any other is refused with 422 naming it.
         */
        get: operations["market.agfRanking"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/agf_stats/evolution": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Monthly evolution of administrators, pivoted by month for charts
         * @description Monthly evolution of administrators, pivoted by month for charts. Needs an API key (X-Api-Key header). Query parameters: `administrator`, `metric`, `from_month`, `to_month`, `batch`; any other is refused with 422 naming it.
         */
        get: operations["market.agfEvolution"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/reports/tac-changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Largest TAC changes of a closed month vs the month before, one series per fund
         * @description Largest TAC changes of a closed month vs the month before, one series per fund. Needs an API key (X-Api-Key header). Query parameters: `date`, `direction`, `limit`, `category`, `batch`; any other is refused with 422 naming it.
         */
        get: operations["market.tacChanges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/market/flows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Net subscriptions of a series, fund, administrator or AFM family by day or month, native or in CLP
         * @description Net subscriptions of a series, fund, administrator or AFM family by day or month, native or in CLP. Needs an API key (X-Api-Key header). Query parameters: `level`, `id`, `period`, `from`, `to`, `currency`, `limit`, `offset`, `batch`; any other is refused with 422 naming it.
         */
        get: operations["market.flows"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/funds/{run}/cartera/resumen": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A mutual fund's portfolio grouped by instrument type (ETF/FI: /api/fi/instruments/{id}/cartera/resumen)
         * @description A mutual fund's portfolio grouped by instrument type (ETF/FI: /api/fi/instruments/{id}/cartera/resumen). Needs an API key (X-Api-Key header). Query parameters: `month`, `batch`; any other is refused with 422 naming it.
         */
        get: operations["market.carteraResumen"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/funds/{run}/cartera/holdings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A mutual fund's portfolio positions, largest weight first (ETF/FI: /api/fi/instruments/{id}/cartera/holdings)
         * @description A mutual fund's portfolio positions, largest weight first (ETF/FI: /api/fi/instruments/{id}/cartera/holdings). Needs an API key (X-Api-Key header). Query parameters: `month`, `market`, `batch`; any other is refused with 422 naming it.
         */
        get: operations["market.carteraHoldings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/funds/{run}/article107": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the fund's internal regulation declares about article 107, with its evidence
         * @description What the fund's internal regulation declares about article 107, with its evidence. Needs an API key (X-Api-Key header). Query parameters: `batch`; any other is refused with 422 naming it.
         */
        get: operations["market.article107"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/compare": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Compare up to ten series of the latest published batch, with per-period and spheres comparability
         * @description Compare up to ten series of the latest published batch, with per-period and spheres comparability. Needs an API key (X-Api-Key header). Query parameters: `series`, `batch`; any other is refused with 422 naming it.
         */
        get: operations["market.compare"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/screener": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Filter and sort the series of the latest published batch, one page at a time
         * @description Filter and sort the series of the latest published batch, one page at a time. Needs an API key (X-Api-Key header). Query parameters: `q`, `fund_family`, `investor_class`, `currency`, `category`, `administrator`, `cmf_spheres_min`, `cmf_spheres_max`, `cmf_family`, `cmf_investor_type`, `sort`, `order`, `limit`, `offset`, `date`, `universe`, `batch`; any other is refused with 422 naming it.
         */
        get: operations["market.screener"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/fi/instruments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Investment funds and ETFs: catalog, filtered and paged
         * @description Investment funds and ETFs: catalog, filtered and paged. Needs an API key (X-Api-Key header). Query parameters: `provider_id`, `is_etf`, `regulatory_type`, `status`, `q`, `limit`, `offset`, `batch`; any other is refused with 422 naming it.
         */
        get: operations["fi.instruments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/fi/instruments/{instrument_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One investment fund or ETF: classification, latest quota, patrimony, fact sheet, TAC, article 107
         * @description One investment fund or ETF: classification, latest quota, patrimony, fact sheet, TAC, article 107. Needs an API key (X-Api-Key header). Query parameters: `batch`; any other is refused with 422 naming it.
         */
        get: operations["fi.instrument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/fi/instruments/{instrument_id}/prices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * CMF book values of the instrument's series, ascending by date
         * @description CMF book values of the instrument's series, ascending by date. Needs an API key (X-Api-Key header). Query parameters: `from_date`, `to_date`, `limit`, `offset`, `batch`; any other is refused with 422 naming it.
         */
        get: operations["fi.prices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/fi/instruments/{instrument_id}/cartera/holdings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Quarterly portfolio of the fund, per position
         * @description Quarterly portfolio of the fund, per position. Needs an API key (X-Api-Key header). Query parameters: `month`, `market`, `batch`; any other is refused with 422 naming it.
         */
        get: operations["fi.holdings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/fi/instruments/{instrument_id}/cartera/resumen": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Quarterly portfolio of the fund, grouped by instrument type
         * @description Quarterly portfolio of the fund, grouped by instrument type. Needs an API key (X-Api-Key header). Query parameters: `month`, `market`, `batch`; any other is refused with 422 naming it.
         */
        get: operations["fi.resumen"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/holders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Who holds this: every mutual and investment fund portfolio holding an instrument or issuer in a month, largest weight first
         * @description Who holds this: every mutual and investment fund portfolio holding an instrument or issuer in a month, largest weight first. Needs an API key (X-Api-Key header). Query parameters: `instrument`, `isin`, `issuer_rut`, `month`, `batch`; any other is refused with 422 naming it.
         */
        get: operations["holders.holders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/batches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every published batch, newest first, from the pipeline's ledger; `?batch=` on any data route reads one
         * @description Every published batch, newest first, from the pipeline's ledger; `?batch=` on any data route reads one. Needs an API key (X-Api-Key header). Query parameters: `limit`, `offset`, `batch`; any other is refused with 422 naming it.
         */
        get: operations["batches.batches"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/batches/{batch_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One published batch with its manifest: inputs with their SHA-256, row counts, repairs, corrections
         * @description One published batch with its manifest: inputs with their SHA-256, row counts, repairs, corrections. Needs an API key (X-Api-Key header). Takes no query parameter: one in the request is refused with 422 naming it.
         */
        get: operations["batches.batch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What changed from one published batch to another: restated daily values, series appeared, ended or renamed, TAC and registry changes
         * @description What changed from one published batch to another: restated daily values, series appeared, ended or renamed, TAC and registry changes. Needs an API key (X-Api-Key header). Query parameters: `from_batch`, `to_batch`, `limit`, `cursor`; any other is refused with 422 naming it.
         */
        get: operations["changes.changes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/magic-link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mail a sign-in link (limited per e-mail and per client address)
         * @description Mail a sign-in link (limited per e-mail and per client address). No API key.
         */
        post: operations["account.magicLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/google": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Start social login (Google or the configured OIDC issuer): redirects to it
         * @description Start social login (Google or the configured OIDC issuer): redirects to it. No API key. Query parameters: `return_url`.
         */
        get: operations["account.googleLogin"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/google/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Social login comes back here; redirects to the return URL with a one-time `code`
         * @description Social login comes back here; redirects to the return URL with a one-time `code`. No API key. Query parameters: `code`, `state`.
         */
        get: operations["account.googleCallback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange a `code` or mailed `token` for the session cookie
         * @description Exchange a `code` or mailed `token` for the session cookie. No API key.
         */
        post: operations["account.loginCallback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * End the session
         * @description End the session. No API key.
         */
        post: operations["account.logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The signed-in user
         * @description The signed-in user. No API key.
         */
        get: operations["account.me"];
        put?: never;
        post?: never;
        /**
         * Remove the account and its data (profile, sessions, watchlist; the address's keys are revoked)
         * @description Remove the account and its data (profile, sessions, watchlist; the address's keys are revoked). No API key.
         */
        delete: operations["account.deleteMe"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/watchlist": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The watchlist
         * @description The watchlist. No API key.
         */
        get: operations["account.watchlist"];
        put?: never;
        /**
         * Add a published series to the watchlist
         * @description Add a published series to the watchlist. No API key.
         */
        post: operations["account.watch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/watchlist/{serie_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a series from the watchlist
         * @description Remove a series from the watchlist. No API key.
         */
        delete: operations["account.unwatch"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/me/alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change alert e-mail preferences (an absent or null field is left unchanged)
         * @description Change alert e-mail preferences (an absent or null field is left unchanged). No API key.
         */
        patch: operations["account.alerts"];
        trace?: never;
    };
    "/api/alerts/unsubscribe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Unsubscribe with the signed token of an alert mail
         * @description Unsubscribe with the signed token of an alert mail. No API key.
         */
        post: operations["account.unsubscribe"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/alerts/unsubscribe/one-click": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * RFC 8058 one-click unsubscribe (List-Unsubscribe-Post)
         * @description RFC 8058 one-click unsubscribe (List-Unsubscribe-Post). No API key. Query parameters: `token`.
         */
        post: operations["account.oneClickUnsubscribe"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/batches/{batch_id}/snapshot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The batch's SQLite snapshot file, resumable, with its SHA-256 (Repr-Digest)
         * @description Streams the file itself (docs/snapshot-format.md). One request of quota per download: a range that resumes a download the same key started today is not counted. Unknown batch: 404; a published batch whose file retention removed: 410 with its content hash and the command that rebuilds it.
         */
        get: operations["downloads.batchSnapshot"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/batches/{batch_id}/parquet/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One of the batch's Parquet files (daily values by year, series, returns, TAC, holdings), by byte ranges
         * @description Streams the file itself, written by the pipeline beside the snapshot and listed, with its size and SHA-256, in the batch's signed release (`<batch_id>.parquet/<file>`). `days-<YYYY>.parquet`: asset_id, date, price, total_net_assets, shareholders, sorted by asset_id then date, row groups of 65,536 rows with min/max statistics, so a reader fetches the footer and the one row group of a series. Served as the snapshot: ETag and Repr-Digest (SHA-256), Last-Modified, one range per request (206, 416, If-Range), HEAD; one request of quota per download (a range past byte 0 of a file the key started today is free, 8 per start). Unknown batch or file: 404; a batch whose files retention removed: 410.
         */
        get: operations["downloads.batchParquet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/batches/{batch_id}/days.csv.gz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every series' daily values of the batch, as gzip-compressed CSV
         * @description One line per series per date: mutual fund series then FI/ETF series (CMF book values), by id and date; `id` is the API's id behind its domain's prefix (`fm-123456789`, `fi-<UUID>`: text in every row, so DuckDB and pandas read it as text), ISO dates, `.` decimals with a decimal point always in price and total_net_assets (`1000.0`), empty for a missing value. series.csv names every id. `from_date` keeps the dates on or after it (a client that holds a batch fetches what is new). Streamed (no Content-Length, no Range); a weak ETag. One request of quota.
         */
        get: operations["downloads.batchDaysCsv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/batches/{batch_id}/series.csv": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The catalog of the batch's series, beside days.csv.gz, as CSV
         * @description One line per series of the batch, with the id days.csv.gz uses: id, vehicle (`mutual_fund`, `investment_fund`, `etf`), run (with check digit), fund, series (label), administrator, currency, first_date and last_date (its first and last daily value, ISO; empty when it has none). Content-Length, a strong ETag and Repr-Digest (SHA-256), one byte range per request (206, 416, If-Range). One request of quota per request. Unknown batch: 404; a file retention removed: 410.
         */
        get: operations["downloads.batchSeriesCsv"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/batches/{batch_id}/release": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The batch's signed release manifest: its files' sizes and SHA-256, chained to the previous release
         * @description The manifest's bytes as signed (check them as received, never re-serialised): `release.sig` is their Ed25519 signature by the key at /.well-known/fds-release-key.pem. `previous.release_sha256` is the SHA-256 of the previous batch's release manifest: following it checks the chain back. `./fds verify --from URL` checks all of it; README "Signed releases" gives the openssl command. A batch published before releases were signed: 404.
         */
        get: operations["releases.batchRelease"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/batches/{batch_id}/release.sig": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The Ed25519 signature of the batch's release manifest (64 raw bytes)
         * @description Check it with the public key: `openssl pkeyutl -verify -pubin -inkey fds-release-key.pem -rawin -in release.json -sigfile release.sig`.
         */
        get: operations["releases.batchReleaseSignature"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/batches/{batch_id}/manifest.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The batch's build manifest, byte for byte as the release lists it
         * @description The file written beside the snapshot (inputs with their SHA-256, row counts, content hash): the same manifest GET /api/batches/{batch_id} embeds, as the bytes whose size and SHA-256 the release lists.
         */
        get: operations["releases.batchManifestFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/fds-release-key.pem": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The public key that signs the releases (Ed25519, PEM; public, no key)
         * @description The key every /api/batches/{batch_id}/release.sig verifies with. 404 until a batch has been published with a signed release.
         */
        get: operations["releaseKey.releaseKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The key's webhook endpoints (without their secrets)
         * @description The key's webhook endpoints (without their secrets). Needs an API key (X-Api-Key header). Takes no query parameter: one in the request is refused with 422 naming it.
         */
        get: operations["webhooks.webhooks"];
        put?: never;
        /**
         * Create a webhook endpoint; the answer holds its signing secret, shown this once
         * @description Create a webhook endpoint; the answer holds its signing secret, shown this once. Needs an API key (X-Api-Key header). Takes no query parameter: one in the request is refused with 422 naming it.
         */
        post: operations["webhooks.createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{webhook_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint and its pending deliveries
         * @description Delete a webhook endpoint and its pending deliveries. Needs an API key (X-Api-Key header). Takes no query parameter: one in the request is refused with 422 naming it.
         */
        delete: operations["webhooks.deleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{webhook_id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A webhook endpoint's latest deliveries and their state
         * @description A webhook endpoint's latest deliveries and their state. Needs an API key (X-Api-Key header). Takes no query parameter: one in the request is refused with 422 naming it.
         */
        get: operations["webhooks.webhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{webhook_id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a signed `webhook.test` event to the endpoint now; the delivery after that attempt
         * @description Send a signed `webhook.test` event to the endpoint now; the delivery after that attempt. Needs an API key (X-Api-Key header). Takes no query parameter: one in the request is refused with 422 naming it.
         */
        post: operations["webhooks.testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description The one error shape of this API: an RFC 9457 problem document */
        ValidationError: {
            /**
             * Format: uri-reference
             * @description RFC 9457 problem type: the error code's entry on /docs (`/docs#error-<error>`), resolved against the URL called
             */
            type: string;
            /** @description RFC 9457 title: a short summary, fixed per error code */
            title: string;
            /**
             * @description The HTTP status of the answer
             * @enum {number}
             */
            status: 422;
            /** @description RFC 9457 detail: what went wrong with this request (the same text as `message`) */
            detail: string;
            /**
             * Format: uri
             * @description RFC 9457 instance: this answer's X-Request-Id as `urn:fds:request:<id>`; on every HTTP answer
             */
            instance: string;
            /** @description The error code (the `<code>` of `type`); kept from the API's error shape before RFC 9457 */
            error: string;
            /** @description The same text as `detail`; kept from the API's error shape before RFC 9457 */
            message: string;
            parameter?: string;
            issues?: components["schemas"]["ValidationIssue"][];
        };
        ValidationIssue: {
            path: (string | number | ("Infinity" | "-Infinity" | "NaN"))[];
            message: string;
        };
        /** @description The one error shape of this API: an RFC 9457 problem document */
        RateLimitedError: {
            /**
             * Format: uri-reference
             * @description RFC 9457 problem type: the error code's entry on /docs (`/docs#error-<error>`), resolved against the URL called
             */
            type: string;
            /** @description RFC 9457 title: a short summary, fixed per error code */
            title: string;
            /**
             * @description The HTTP status of the answer
             * @enum {number}
             */
            status: 429;
            /** @description RFC 9457 detail: what went wrong with this request (the same text as `message`) */
            detail: string;
            /**
             * Format: uri
             * @description RFC 9457 instance: this answer's X-Request-Id as `urn:fds:request:<id>`; on every HTTP answer
             */
            instance: string;
            /** @description The error code (the `<code>` of `type`); kept from the API's error shape before RFC 9457 */
            error: string;
            /** @description The same text as `detail`; kept from the API's error shape before RFC 9457 */
            message: string;
            parameter?: string;
            issues?: components["schemas"]["ValidationIssue"][];
        };
        /** @description The one error shape of this API: an RFC 9457 problem document */
        QuotaExceededError: {
            /**
             * Format: uri-reference
             * @description RFC 9457 problem type: the error code's entry on /docs (`/docs#error-<error>`), resolved against the URL called
             */
            type: string;
            /** @description RFC 9457 title: a short summary, fixed per error code */
            title: string;
            /**
             * @description The HTTP status of the answer
             * @enum {number}
             */
            status: 429;
            /** @description RFC 9457 detail: what went wrong with this request (the same text as `message`) */
            detail: string;
            /**
             * Format: uri
             * @description RFC 9457 instance: this answer's X-Request-Id as `urn:fds:request:<id>`; on every HTTP answer
             */
            instance: string;
            /** @description The error code (the `<code>` of `type`); kept from the API's error shape before RFC 9457 */
            error: string;
            /** @description The same text as `detail`; kept from the API's error shape before RFC 9457 */
            message: string;
            parameter?: string;
            issues?: components["schemas"]["ValidationIssue"][];
        };
        /** @description The one error shape of this API: an RFC 9457 problem document */
        UnauthorizedError: {
            /**
             * Format: uri-reference
             * @description RFC 9457 problem type: the error code's entry on /docs (`/docs#error-<error>`), resolved against the URL called
             */
            type: string;
            /** @description RFC 9457 title: a short summary, fixed per error code */
            title: string;
            /**
             * @description The HTTP status of the answer
             * @enum {number}
             */
            status: 401;
            /** @description RFC 9457 detail: what went wrong with this request (the same text as `message`) */
            detail: string;
            /**
             * Format: uri
             * @description RFC 9457 instance: this answer's X-Request-Id as `urn:fds:request:<id>`; on every HTTP answer
             */
            instance: string;
            /** @description The error code (the `<code>` of `type`); kept from the API's error shape before RFC 9457 */
            error: string;
            /** @description The same text as `detail`; kept from the API's error shape before RFC 9457 */
            message: string;
            parameter?: string;
            issues?: components["schemas"]["ValidationIssue"][];
        };
        /** @description The one error shape of this API: an RFC 9457 problem document */
        ServiceUnavailableError: {
            /**
             * Format: uri-reference
             * @description RFC 9457 problem type: the error code's entry on /docs (`/docs#error-<error>`), resolved against the URL called
             */
            type: string;
            /** @description RFC 9457 title: a short summary, fixed per error code */
            title: string;
            /**
             * @description The HTTP status of the answer
             * @enum {number}
             */
            status: 503;
            /** @description RFC 9457 detail: what went wrong with this request (the same text as `message`) */
            detail: string;
            /**
             * Format: uri
             * @description RFC 9457 instance: this answer's X-Request-Id as `urn:fds:request:<id>`; on every HTTP answer
             */
            instance: string;
            /** @description The error code (the `<code>` of `type`); kept from the API's error shape before RFC 9457 */
            error: string;
            /** @description The same text as `detail`; kept from the API's error shape before RFC 9457 */
            message: string;
            parameter?: string;
            issues?: components["schemas"]["ValidationIssue"][];
            /** @description The X-Request-Id of the answer: quote it when reporting the failure */
            request_id?: string;
        };
        /** @description The one error shape of this API: an RFC 9457 problem document */
        NotFoundError: {
            /**
             * Format: uri-reference
             * @description RFC 9457 problem type: the error code's entry on /docs (`/docs#error-<error>`), resolved against the URL called
             */
            type: string;
            /** @description RFC 9457 title: a short summary, fixed per error code */
            title: string;
            /**
             * @description The HTTP status of the answer
             * @enum {number}
             */
            status: 404;
            /** @description RFC 9457 detail: what went wrong with this request (the same text as `message`) */
            detail: string;
            /**
             * Format: uri
             * @description RFC 9457 instance: this answer's X-Request-Id as `urn:fds:request:<id>`; on every HTTP answer
             */
            instance: string;
            /** @description The error code (the `<code>` of `type`); kept from the API's error shape before RFC 9457 */
            error: string;
            /** @description The same text as `detail`; kept from the API's error shape before RFC 9457 */
            message: string;
            parameter?: string;
            issues?: components["schemas"]["ValidationIssue"][];
        };
        WebhookDelivery: {
            /** @description The event id, sent as `webhook-id` (the same on every attempt) */
            event_id: string;
            /** @description The event type (`webhook.test` for a test event) */
            type: string;
            /**
             * @description pending: to be tried (again) at next_attempt_at; delivered: an attempt got a 2xx; failed: given up (a day of retries, or the endpoint answered 410 Gone)
             * @enum {string}
             */
            state: "pending" | "delivered" | "failed";
            attempts: number;
            /** @description ISO instant of the next attempt (pending only) */
            next_attempt_at: string | null;
            /** @description The HTTP status of the last attempt; null: none came (refused, timed out) */
            last_status: number | null;
            /** @description Why the last attempt failed */
            last_error: string | null;
            /** @description ISO instant the last attempt ended */
            last_attempt_at: string | null;
        };
        /** @description The endpoint's latest 100 deliveries, newest first */
        WebhookDeliveryList: {
            data: components["schemas"]["WebhookDelivery"][];
        };
        WebhookList: {
            data: components["schemas"]["WebhookEndpoint"][];
        };
        /** @description A webhook endpoint of the key (its secret is never shown again) */
        WebhookEndpoint: {
            /** @description The endpoint's id (`whk_` and 16 hex digits) */
            id: string;
            /** Format: uri */
            url: string;
            events: components["schemas"]["WebhookEventType"][];
            /** @description ISO instant */
            created_at: string;
            /** @description ISO instant the endpoint was disabled: it answered 410 Gone (or its key was revoked), so nothing more is sent to it (its pending deliveries were given up); null: enabled */
            disabled_at: string | null;
        };
        /**
         * @description batch.published: a batch was published; batch.rolled_back: CURRENT was set back to an earlier batch; values.restated: daily values differ from the previous batch (count and the /api/changes link); tac.changed: TACs differ from the previous batch (count and link); source.late: a data set is older than its cadence allows
         * @enum {string}
         */
        WebhookEventType: "batch.published" | "batch.rolled_back" | "values.restated" | "tac.changed" | "source.late";
        WebhookCreated: {
            /** @description The endpoint's id (`whk_` and 16 hex digits) */
            id: string;
            /** Format: uri */
            url: string;
            events: components["schemas"]["WebhookEventType"][];
            /** @description ISO instant */
            created_at: string;
            /** @description ISO instant the endpoint was disabled: it answered 410 Gone (or its key was revoked), so nothing more is sent to it (its pending deliveries were given up); null: enabled */
            disabled_at: string | null;
            /** @description The signing secret (`whsec_…`), shown this once: give it to a Standard Webhooks library to verify each delivery's `webhook-signature` */
            secret: string;
        };
        WebhookCreateRequest: {
            url: string & unknown;
            /** @description The event types to receive (at least one) */
            events: components["schemas"]["WebhookEventType"][];
        };
        BatchManifest: {
            /** @description The snapshot format version (docs/snapshot-format.md) */
            format_version: number;
            pipeline_version: string;
            batch_date: string;
            /** @description The snapshot file's name: <batch id>.sqlite */
            file: string;
            content_hash: string;
            /** @description The raw files it was built from, with their SHA-256 */
            inputs: components["schemas"]["ManifestInput"][];
            /** @description Rows per table of the snapshot */
            row_counts: {
                [key: string]: number;
            };
            /** @description Normal CMF quirks repaired or skipped while building it (duplicate rows, footnotes, …), counted by kind */
            repairs: {
                [key: string]: number;
            };
            options: {
                [key: string]: string;
            };
            /** @description Provisional values (the daily BPR report) that a cartola replaced with a value differing by more than the BPR's rounding */
            corrections?: components["schemas"]["QuotaCorrection"][];
            /** @description Series whose latest value comes from the BPR report alone */
            quota_sources?: {
                bpr_series: number;
                bpr_rows: number;
            };
            /** @description Each table's SHA-256 digest; the content hash is SHA-256 over `<table> <digest>` lines (pipeline 0.5) */
            table_digests?: {
                [key: string]: string;
            };
            /** @description The quotas table's digest per month (YYYYMM → SHA-256); its table digest is over `<YYYYMM> <digest>` lines (pipeline 0.5) */
            quota_month_digests?: {
                [key: string]: string;
            };
            /** @description The other tables cut by month (fi_prices), by table: each month's digest (YYYYMM → SHA-256); the table's digest is over `<YYYYMM> <digest>` lines (pipeline 0.6) */
            table_month_digests?: {
                [key: string]: {
                    [key: string]: string;
                };
            };
            /** @description The staging steps, by data set, that the next daily build may keep with their tables when its fingerprint is the same (pipeline 0.6) */
            staging?: {
                [key: string]: {
                    /** @description SHA-256 of what the step read (its files, the data sets and core it used) */
                    fingerprint: string;
                    /** @description The tables it wrote */
                    tables: string[];
                    repairs: {
                        [key: string]: number;
                    };
                    meta: {
                        [key: string]: string;
                    };
                    state?: unknown;
                };
            };
            /** @description What computations that continue from a month keep for the next daily build, by computation (the family index's unrounded values) (pipeline 0.6) */
            compute_state?: Record<string, never>;
            /** @description How the file was built: from nothing (cold, with why when it could have been an increment) or as an increment of the previous batch's file (base), its daily values merged again from `from` (pipeline 0.5) */
            build?: {
                /** @enum {string} */
                kind: "cold";
                cold_reason?: string;
            } | {
                /** @enum {string} */
                kind: "increment";
                base: string;
                from: string;
                /** @description The staging steps (data sets) whose tables were kept from base */
                kept?: string[];
                /** @description The computations that kept their rows before month (YYYY-MM) and computed from it on */
                computed_from?: {
                    month: string;
                    computations: string[];
                };
                /** @description Staged tables that kept their rows before a date (YYYY-MM-DD) and were staged from it on, by table */
                updated_from?: {
                    [key: string]: string;
                };
            };
        };
        QuotaCorrection: {
            asset_id: number;
            run: number;
            serie: string;
            date: string;
            /** @description The provisional value (the daily BPR report) */
            old: number;
            /** @description The cartola's value that replaced it */
            new: number;
            /** @description `<data set> <file>` of the old value */
            old_source: string;
            /** @description `<data set> <file>` of the new value */
            new_source: string;
        };
        ManifestInput: {
            /** @description The CMF data set of the file (cartola_diaria, fm_ident2, …) */
            data_set: string;
            /** @description The raw file's name */
            name: string;
            /** @description SHA-256 (hex) of the raw file's bytes */
            sha256: string;
            bytes: number;
        };
        /** @description A batch's release manifest, signed with Ed25519 (its detached signature: /api/batches/{batch_id}/release.sig over these exact bytes; the key: /.well-known/fds-release-key.pem). Each release names the previous one's SHA-256: a chain back to the first */
        ReleaseManifest: {
            /** @enum {string} */
            format: "fds-release/1";
            /** @description The batch: <batch date>-<first 16 hex digits of its content hash> */
            batch_id: string;
            /** @description The date the batch is of (YYYY-MM-DD) */
            batch_date: string;
            /** @description When the release was signed, ISO 8601 in UTC */
            created_at: string;
            /** @description SHA-256 (hex) of the signing public key (its DER SubjectPublicKeyInfo) */
            key_sha256: string;
            /** @description Every file of the batch, by name */
            files: components["schemas"]["ReleaseFile"][];
            /** @description The release published before this one (null for the first signed release): its batch and its manifest's SHA-256 */
            previous: components["schemas"]["ReleasePrevious"] | null;
        };
        /** @description The link to the previous release */
        ReleasePrevious: {
            /** @description The batch published before this one */
            batch_id: string;
            /** @description SHA-256 (hex) of that batch's release manifest, byte for byte as served */
            release_sha256: string;
        };
        /** @description One file of the batch */
        ReleaseFile: {
            /** @description The file's name: `<batch id>.sqlite` (GET /api/batches/{batch_id}/snapshot), `<batch id>.manifest.json` (GET /api/batches/{batch_id}/manifest.json) or `<batch id>.parquet/<file>` (GET /api/batches/{batch_id}/parquet/{file}) */
            name: string;
            /** @description The file's size in bytes */
            size: number;
            /** @description SHA-256 (hex) of the file's bytes */
            sha256: string;
        };
        /** @description The one error shape of this API: an RFC 9457 problem document */
        RangeNotSatisfiableError: {
            /**
             * Format: uri-reference
             * @description RFC 9457 problem type: the error code's entry on /docs (`/docs#error-<error>`), resolved against the URL called
             */
            type: string;
            /** @description RFC 9457 title: a short summary, fixed per error code */
            title: string;
            /**
             * @description The HTTP status of the answer
             * @enum {number}
             */
            status: 416;
            /** @description RFC 9457 detail: what went wrong with this request (the same text as `message`) */
            detail: string;
            /**
             * Format: uri
             * @description RFC 9457 instance: this answer's X-Request-Id as `urn:fds:request:<id>`; on every HTTP answer
             */
            instance: string;
            /** @description The error code (the `<code>` of `type`); kept from the API's error shape before RFC 9457 */
            error: string;
            /** @description The same text as `detail`; kept from the API's error shape before RFC 9457 */
            message: string;
            parameter?: string;
            issues?: components["schemas"]["ValidationIssue"][];
        };
        /** @description The one error shape of this API: an RFC 9457 problem document */
        BatchNotRetainedError: {
            /**
             * Format: uri-reference
             * @description RFC 9457 problem type: the error code's entry on /docs (`/docs#error-<error>`), resolved against the URL called
             */
            type: string;
            /** @description RFC 9457 title: a short summary, fixed per error code */
            title: string;
            /**
             * @description The HTTP status of the answer
             * @enum {number}
             */
            status: 410;
            /** @description RFC 9457 detail: what went wrong with this request (the same text as `message`) */
            detail: string;
            /**
             * Format: uri
             * @description RFC 9457 instance: this answer's X-Request-Id as `urn:fds:request:<id>`; on every HTTP answer
             */
            instance: string;
            /** @description The error code (the `<code>` of `type`); kept from the API's error shape before RFC 9457 */
            error: string;
            /** @description The same text as `detail`; kept from the API's error shape before RFC 9457 */
            message: string;
            parameter?: string;
            issues?: components["schemas"]["ValidationIssue"][];
        };
        /** @description The one error shape of this API: an RFC 9457 problem document */
        ForbiddenError: {
            /**
             * Format: uri-reference
             * @description RFC 9457 problem type: the error code's entry on /docs (`/docs#error-<error>`), resolved against the URL called
             */
            type: string;
            /** @description RFC 9457 title: a short summary, fixed per error code */
            title: string;
            /**
             * @description The HTTP status of the answer
             * @enum {number}
             */
            status: 403;
            /** @description RFC 9457 detail: what went wrong with this request (the same text as `message`) */
            detail: string;
            /**
             * Format: uri
             * @description RFC 9457 instance: this answer's X-Request-Id as `urn:fds:request:<id>`; on every HTTP answer
             */
            instance: string;
            /** @description The error code (the `<code>` of `type`); kept from the API's error shape before RFC 9457 */
            error: string;
            /** @description The same text as `detail`; kept from the API's error shape before RFC 9457 */
            message: string;
            parameter?: string;
            issues?: components["schemas"]["ValidationIssue"][];
        };
        AlertPreferences: {
            email_opt_in_alerts: boolean;
            email_opt_in_monthly_summary: boolean;
        };
        UnsubscribeRequest: {
            /** @description The token of the mail's unsubscribe link */
            token: string;
        };
        /** @description The one error shape of this API: an RFC 9457 problem document */
        NotSignedInError: {
            /**
             * Format: uri-reference
             * @description RFC 9457 problem type: the error code's entry on /docs (`/docs#error-<error>`), resolved against the URL called
             */
            type: string;
            /** @description RFC 9457 title: a short summary, fixed per error code */
            title: string;
            /**
             * @description The HTTP status of the answer
             * @enum {number}
             */
            status: 401;
            /** @description RFC 9457 detail: what went wrong with this request (the same text as `message`) */
            detail: string;
            /**
             * Format: uri
             * @description RFC 9457 instance: this answer's X-Request-Id as `urn:fds:request:<id>`; on every HTTP answer
             */
            instance: string;
            /** @description The error code (the `<code>` of `type`); kept from the API's error shape before RFC 9457 */
            error: string;
            /** @description The same text as `detail`; kept from the API's error shape before RFC 9457 */
            message: string;
            parameter?: string;
            issues?: components["schemas"]["ValidationIssue"][];
        };
        AlertPreferenceRequest: {
            /** @description Absent or null: unchanged */
            email_opt_in_alerts?: boolean | null;
            /** @description Absent or null: unchanged */
            email_opt_in_monthly_summary?: boolean | null;
        };
        WatchlistResponse: {
            data: {
                serie_id: string;
                added_at: string;
            }[];
        };
        WatchlistRequest: {
            /** @description A published series id: decimal CRC32 (FM) or UUID (FI/ETF), up to 36 characters */
            serie_id: string;
        };
        /** @description The signed-in user */
        Account: {
            email: string;
            created_at: string;
            email_opt_in_alerts: boolean;
            email_opt_in_monthly_summary: boolean;
        };
        /** @description Exactly one of `code` and `token` */
        LoginCallbackRequest: {
            /** @description The `code` the social-login callback put on the return URL */
            code?: string | null;
            /** @description The `token` of the mailed sign-in link */
            token?: string | null;
        };
        /** @description Sent when the address may receive it (the answer does not say whether it has an account) */
        MagicLinkSent: {
            /** @enum {string} */
            status: "sent";
        };
        MagicLinkRequest: {
            email: string & unknown;
            /** @description Where the mailed link leads (with a `token` parameter); must be on the service's public origin */
            return_url: string;
        };
        /** @description Changes from from_batch to to_batch, in a fixed order (registry, series, TAC, daily values; by id within each). New dates and months after from_batch's are not changes: read them from /days and /expense_ratio/history */
        ChangeList: {
            data: components["schemas"]["ChangeItem"][];
            links: components["schemas"]["PageLinks_1"];
            meta: {
                /**
                 * @description to_batch: the batch this page brings a copy to; the same as the Batch-Id response header
                 * @example 2026-11-20-0123456789abcdef
                 */
                batch_id: string;
                /** @description The older batch (<batch date>-<content hash prefix>) */
                from_batch: string;
                /** @description The newer batch: as asked, or the current batch when to_batch was left out */
                to_batch: string;
                /** @description YYYY-MM-DD */
                from_batch_date: string;
                /** @description YYYY-MM-DD */
                to_batch_date: string;
                limit: number;
                /** @description Items in this page: at most limit, fewer (even none) when the page's scan budget ran out */
                count: number;
                /** @description The cursor of the next page; null on the last page */
                next_cursor: string | null;
            };
        };
        /** @description This page and the next (path and query as asked, to_batch spelled out, the next's cursor); next is null on the last page: follow it until it is null. prev is always null: the feed is paged forward by a cursor. The same as the Link header */
        PageLinks_1: {
            /**
             * @description This page: path and query as asked, offset (or cursor) and the batch it was read from spelled out
             * @example /api/screener?limit=50&offset=50&batch=2026-11-20-0123456789abcdef
             */
            self: string;
            next: string | null;
            prev: string | null;
        };
        ChangeItem: components["schemas"]["RegistryChanged"] | components["schemas"]["SeriesAppeared"] | components["schemas"]["SeriesRemoved"] | components["schemas"]["SeriesRenamed"] | components["schemas"]["SeriesEnded"] | components["schemas"]["SeriesResumed"] | components["schemas"]["TacChanged"] | components["schemas"]["ValueRestated"];
        /** @description A daily value (FM valor cuota, FI/ETF book value) that differs between the batches on a date inside both batches' date range for the series: old null when only the newer batch has it (a gap filled), new null when only the older one does (withdrawn) */
        ValueRestated: {
            /** @description Unique in the feed between two batches: `<type>:<key>` */
            id: string;
            /** @enum {string} */
            type: "value_restated";
            attributes: {
                vehicle: components["schemas"]["ChangeVehicle"];
                /** @description Series id, as on /api/real_assets/{asset_id}/* */
                asset_id: string;
                /** @description YYYY-MM-DD */
                date: string;
                /** @description The value in from_batch */
                old: number | null;
                /** @description The value in to_batch */
                new: number | null;
                /** @description Where from_batch's value came from; null when it has none, or (FM, rare) when the batch does not record whether the value was the cartola's or the BPR's (a series with BPR values between cartola ones) */
                old_source: components["schemas"]["ValueSource"] | null;
                /** @description Where to_batch's value came from; null as for old_source */
                new_source: components["schemas"]["ValueSource"] | null;
            };
        };
        /**
         * @description cartola: the CMF's daily cartola (final); bpr: its daily BPR report (provisional, valor cuota to 4 decimals); cmf: the CMF's FI/ETF book values (valor libro)
         * @enum {string}
         */
        ValueSource: "cartola" | "bpr" | "cmf";
        /**
         * @description mutual_fund (ids are decimal CRC32), etf or investment_fund (ids are UUIDs)
         * @enum {string}
         */
        ChangeVehicle: "mutual_fund" | "etf" | "investment_fund";
        /** @description A TAC (decimal fraction) that differs: FM monthly TAC on a month inside both batches' month range for the series (old or new null: the month is in one batch only); FI/ETF fact-sheet TAC (month null) */
        TacChanged: {
            /** @description Unique in the feed between two batches: `<type>:<key>` */
            id: string;
            /** @enum {string} */
            type: "tac_changed";
            attributes: {
                vehicle: components["schemas"]["ChangeVehicle"];
                /** @description Series id, as on /api/real_assets/{asset_id}/* */
                asset_id: string;
                /** @description YYYY-MM (FM); null for an FI/ETF fact sheet */
                month: string | null;
                old: number | null;
                new: number | null;
            };
        };
        /** @description A mutual fund series ended in from_batch and active again in to_batch (its end_date went back to null) */
        SeriesResumed: {
            /** @description Unique in the feed between two batches: `<type>:<key>` */
            id: string;
            /** @enum {string} */
            type: "series_resumed";
            attributes: {
                vehicle: components["schemas"]["ChangeVehicle"];
                /** @description Series id, as on /api/real_assets/{asset_id}/* */
                asset_id: string;
                /** @description The fund: concept_id (FM) or instrument_id (FI/ETF) */
                fund_id: string;
                /** @description Fund RUN with check digit */
                run: string;
                /** @description Series label */
                serie: string;
                /** @description Date of the series' first value (in to_batch; from_batch for series_removed) */
                first_date: string | null;
                /** @description Date of the series' last value (same batch as first_date) */
                last_date: string | null;
            };
        };
        /** @description A mutual fund series active in from_batch and ended in to_batch (its /real_assets end_date went from null to a date: its fund ended in the registry, or it went more than FDS_SERIES_GRACE_DAYS weekdays without a value) */
        SeriesEnded: {
            /** @description Unique in the feed between two batches: `<type>:<key>` */
            id: string;
            /** @enum {string} */
            type: "series_ended";
            attributes: {
                vehicle: components["schemas"]["ChangeVehicle"];
                /** @description Series id, as on /api/real_assets/{asset_id}/* */
                asset_id: string;
                /** @description The fund: concept_id (FM) or instrument_id (FI/ETF) */
                fund_id: string;
                /** @description Fund RUN with check digit */
                run: string;
                /** @description Series label */
                serie: string;
                /** @description Date of the series' first value (in to_batch; from_batch for series_removed) */
                first_date: string | null;
                /** @description Date of the series' last value (same batch as first_date) */
                last_date: string | null;
            };
        };
        /** @description A mutual fund series published under a new label: its history now lives under asset_id, and previous_asset_id resolves to it */
        SeriesRenamed: {
            /** @description Unique in the feed between two batches: `<type>:<key>` */
            id: string;
            /** @enum {string} */
            type: "series_renamed";
            attributes: {
                /** @enum {string} */
                vehicle: "mutual_fund";
                /** @description The current series id (to_batch) */
                asset_id: string;
                /** @description The id from_batch had for the series */
                previous_asset_id: string;
                run: string;
                previous_serie: string;
                current_serie: string;
                /** @description First observed date with the new label */
                first_current_date: string;
            };
        };
        /** @description A series from_batch had and to_batch has not (a renamed series is a series_renamed instead) */
        SeriesRemoved: {
            /** @description Unique in the feed between two batches: `<type>:<key>` */
            id: string;
            /** @enum {string} */
            type: "series_removed";
            attributes: {
                vehicle: components["schemas"]["ChangeVehicle"];
                /** @description Series id, as on /api/real_assets/{asset_id}/* */
                asset_id: string;
                /** @description The fund: concept_id (FM) or instrument_id (FI/ETF) */
                fund_id: string;
                /** @description Fund RUN with check digit */
                run: string;
                /** @description Series label */
                serie: string;
                /** @description Date of the series' first value (in to_batch; from_batch for series_removed) */
                first_date: string | null;
                /** @description Date of the series' last value (same batch as first_date) */
                last_date: string | null;
            };
        };
        /** @description A series to_batch has and from_batch had not (a renamed series is a series_renamed instead) */
        SeriesAppeared: {
            /** @description Unique in the feed between two batches: `<type>:<key>` */
            id: string;
            /** @enum {string} */
            type: "series_appeared";
            attributes: {
                vehicle: components["schemas"]["ChangeVehicle"];
                /** @description Series id, as on /api/real_assets/{asset_id}/* */
                asset_id: string;
                /** @description The fund: concept_id (FM) or instrument_id (FI/ETF) */
                fund_id: string;
                /** @description Fund RUN with check digit */
                run: string;
                /** @description Series label */
                serie: string;
                /** @description Date of the series' first value (in to_batch; from_batch for series_removed) */
                first_date: string | null;
                /** @description Date of the series' last value (same batch as first_date) */
                last_date: string | null;
            };
        };
        /** @description A registry fact that differs: one field of an administrator, fund, series or FI/ETF instrument (change `changed`), or an administrator, fund or FI/ETF instrument added or removed (field null, old/new its name) */
        RegistryChanged: {
            /** @description Unique in the feed between two batches: `<type>:<key>` */
            id: string;
            /** @enum {string} */
            type: "registry_changed";
            attributes: {
                entity: components["schemas"]["RegistryEntity"];
                /** @description provider_id, concept_id, asset_id, instrument_id or serie_id */
                entity_id: string;
                /** @enum {string} */
                change: "added" | "removed" | "changed";
                /** @description administrator: name; fund: name, short_name, provider_id, cmf_fund_type, currency, start_date, end_date, is_current; series: currency, first_date; fi_instrument: name, administrator, provider_id, regulatory_type, status, is_etf, ticker; fi_series: currency */
                field: string | null;
                old: string | number | boolean | null;
                new: string | number | boolean | null;
            };
        };
        /** @enum {string} */
        RegistryEntity: "administrator" | "fund" | "series" | "fi_instrument" | "fi_series";
        /** @description A published batch with its manifest and its Parquet files */
        BatchDetail: {
            data: {
                id: string;
                /** @enum {string} */
                type: "batch";
                attributes: {
                    /** @description The date the batch is of (YYYY-MM-DD): its data runs through that day */
                    batch_date: string;
                    /** @description SHA-256 (hex) of the snapshot's content, as its manifest and the ledger record it (docs/snapshot-format.md) */
                    content_hash: string;
                    /** @description When its build was recorded; null when the ledger has no build of it */
                    built_at: string | null;
                    /** @description When it was first published (CURRENT named it): the start of its first interval */
                    published_at: string;
                    /** @description The end of its last interval: when another batch last replaced it (a later publish or a rollback); null while it is current */
                    superseded_at: string | null;
                    /** @description Every span during which it was the published batch, oldest first (a rollback to it opens another): at any instant exactly one batch's interval holds it. The batch as known at instant t is the one with from ≤ t < to */
                    current_intervals: components["schemas"]["CurrentInterval"][];
                    /** @description The pipeline version that built it */
                    pipeline_version: string | null;
                    /** @description How many raw CMF files it was built from */
                    input_count: number | null;
                    /** @description Its snapshot file is still on this server: `?batch=` answers from it (else 410 batch_not_retained) */
                    retained: boolean;
                    /** @description It is the batch this server answers from when a request names none */
                    current: boolean;
                    manifest: components["schemas"]["BatchManifest"];
                    /** @description The batch's Parquet files on this server, by name (GET /api/batches/{batch_id}/parquet/{file}; sizes and SHA-256 in its release); empty once retention removed them, or for a batch published before they were written */
                    parquet_files: string[];
                };
            };
        };
        /** @description A span during which the batch was the published one: from ≤ t < to. Over all batches the spans never overlap */
        CurrentInterval: {
            /** @description When it became the published batch (a publish, or a rollback to it) */
            from: string;
            /** @description When another batch replaced it (a later publish or a rollback); null while it is current */
            to: string | null;
        };
        /** @description Every published batch, newest first (by first publication); with `batch`, the list as it stood when that batch was first published (it and the batches before it): its links name the first page's newest batch, so paging never shifts by a publish */
        BatchList: {
            data: components["schemas"]["Batch"][];
            /** @description Published batches (up to the list's batch), before paging */
            total: number;
            limit: number;
            offset: number;
            links: components["schemas"]["PageLinks"];
        };
        /** @description Root-relative links (path and query; resolve them against the service's base URL) to this page and its neighbours, each carrying every query parameter of the request and the batch the page was read from; the same as the Link header */
        PageLinks: {
            /**
             * @description This page: path and query as asked, offset (or cursor) and the batch it was read from spelled out
             * @example /api/screener?limit=50&offset=50&batch=2026-11-20-0123456789abcdef
             */
            self: string;
            next: string | null;
            prev: string | null;
        };
        /** @description A published batch */
        Batch: {
            /** @description Batch id: <batch date>-<first 16 hex digits of its content hash>; `meta.batch_id` in answers */
            id: string;
            /** @enum {string} */
            type: "batch";
            attributes: components["schemas"]["BatchAttributes"];
        };
        BatchAttributes: {
            /** @description The date the batch is of (YYYY-MM-DD): its data runs through that day */
            batch_date: string;
            /** @description SHA-256 (hex) of the snapshot's content, as its manifest and the ledger record it (docs/snapshot-format.md) */
            content_hash: string;
            /** @description When its build was recorded; null when the ledger has no build of it */
            built_at: string | null;
            /** @description When it was first published (CURRENT named it): the start of its first interval */
            published_at: string;
            /** @description The end of its last interval: when another batch last replaced it (a later publish or a rollback); null while it is current */
            superseded_at: string | null;
            /** @description Every span during which it was the published batch, oldest first (a rollback to it opens another): at any instant exactly one batch's interval holds it. The batch as known at instant t is the one with from ≤ t < to */
            current_intervals: components["schemas"]["CurrentInterval"][];
            /** @description The pipeline version that built it */
            pipeline_version: string | null;
            /** @description How many raw CMF files it was built from */
            input_count: number | null;
            /** @description Its snapshot file is still on this server: `?batch=` answers from it (else 410 batch_not_retained) */
            retained: boolean;
            /** @description It is the batch this server answers from when a request names none */
            current: boolean;
        };
        HoldersResponse: {
            data: components["schemas"]["Holder"][];
            meta: {
                /**
                 * @description The batch that answered (<batch date>-<16 hex digits of its content hash>); the same as the Batch-Id response header
                 * @example 2026-11-20-0123456789abcdef
                 */
                batch_id: string;
                /**
                 * @description Which parameter named what is held
                 * @enum {string}
                 */
                by: "instrument" | "isin" | "issuer_rut";
                /** @description What was looked for, as matched (trimmed, upper case; a RUT without check digit) */
                value: string;
                /** @description The mutual funds' month (the latest FM portfolio month when not given); null when none */
                month: string | null;
                /** @description The investment funds' quarter: the latest FI portfolio period on or before the month; null when none */
                fi_period: string | null;
                total: number;
                /** @description How the rows are ordered */
                order: string;
            };
        };
        Holder: {
            /** @description <vehicle>_<run>_<month or quarter>_<market>_<position> */
            id: string;
            /** @enum {string} */
            type: "holder";
            attributes: {
                /**
                 * @description mutual_fund: a monthly FM portfolio (CMF Circular 1333); investment_fund: a quarterly FI or ETF portfolio
                 * @enum {string}
                 */
                vehicle: "mutual_fund" | "investment_fund";
                /** @description The holding fund's RUN, without check digit */
                run: number;
                fund_name: string | null;
                /** @description The FI/ETF instrument UUID (investment funds); null for mutual funds */
                instrument_id: string | null;
                /** @description The portfolio's month, YYYY-MM (an FI portfolio's quarter-end month) */
                month: string;
                /**
                 * @description N national, E foreign portfolio
                 * @enum {string}
                 */
                market_code: "N" | "E";
                position: number;
                nemotecnico: string | null;
                /** @description ISIN or CUSIP where the portfolio reports one (FI foreign positions) */
                isin: string | null;
                emisor: string | null;
                emisor_rut: number | null;
                tipo_instrumento: string;
                /** @description As CMF reports it: thousands of the holding fund's functional currency */
                valorizacion: number;
                /** @description CMF's percentage of the fund's assets (12.5 = 12.5 %) */
                pct_activo_fondo: number | null;
                /** @description pct_activo_fondo as a decimal fraction (0.125) */
                weight: number | null;
            };
        };
        /** @description The one error shape of this API: an RFC 9457 problem document */
        BadRequestError: {
            /**
             * Format: uri-reference
             * @description RFC 9457 problem type: the error code's entry on /docs (`/docs#error-<error>`), resolved against the URL called
             */
            type: string;
            /** @description RFC 9457 title: a short summary, fixed per error code */
            title: string;
            /**
             * @description The HTTP status of the answer
             * @enum {number}
             */
            status: 400;
            /** @description RFC 9457 detail: what went wrong with this request (the same text as `message`) */
            detail: string;
            /**
             * Format: uri
             * @description RFC 9457 instance: this answer's X-Request-Id as `urn:fds:request:<id>`; on every HTTP answer
             */
            instance: string;
            /** @description The error code (the `<code>` of `type`); kept from the API's error shape before RFC 9457 */
            error: string;
            /** @description The same text as `detail`; kept from the API's error shape before RFC 9457 */
            message: string;
            parameter?: string;
            issues?: components["schemas"]["ValidationIssue"][];
        };
        /** @description Positions grouped by instrument type, largest weight first, then type */
        FiPortfolioSummary: {
            data: components["schemas"]["FiPortfolioSummaryRow"][];
            meta: components["schemas"]["FiPortfolioMeta"];
        };
        FiPortfolioMeta: {
            /**
             * @description The batch that answered (<batch date>-<16 hex digits of its content hash>); the same as the Batch-Id response header
             * @example 2026-11-20-0123456789abcdef
             */
            batch_id: string;
            /**
             * @description When the batch was complete: the first instant after its batch date in America/Santiago (deterministic per batch)
             * @example 2026-11-21T03:00:00Z
             */
            generated_at: string;
            /**
             * @description When the next batch is expected: the first instant after the next weekday after the batch date, America/Santiago (a holiday can delay it)
             * @example 2026-11-21T03:00:00Z
             */
            expires_at: string;
            /** @description Date of the published batch (YYYY-MM-DD) */
            batch_date: string;
            /** @description The FI/ETF data's shared cutoff: the latest CMF book-value date in the batch; statuses are relative to it */
            cutoff_date: string;
            /** @description UUID (v5 of a natural key; see docs/fi.md) */
            instrument_id: string;
            /** @description Fund RUN with check digit */
            run: string;
            /** @description The period answered (YYYY-MM, a quarter end) */
            month: string;
            /** @enum {string} */
            market: "N" | "E" | "all";
            /** @description Per market, whether the fund reported positions for the month */
            availability: {
                /** @enum {string} */
                N: "available" | "unavailable";
                /** @enum {string} */
                E: "available" | "unavailable";
            };
            /** @description The CMF pages the answer comes from (markets with positions in the month) */
            sources: {
                /**
                 * @description N national portfolio, E foreign portfolio
                 * @enum {string}
                 */
                market: "N" | "E";
                /** @description The CMF page: ifrs_cartera_nac or ifrs_cartera_ext */
                document: string;
                positions: number;
            }[];
            /**
             * @description Valuations as CMF reports them: thousands of the fund's functional currency (functional_currency)
             * @enum {string}
             */
            valuation_unit: "cmf_reported";
            /**
             * @description 12.5 means 12.5 % of the fund's assets
             * @enum {string}
             */
            percentage_unit: "percent_of_fund_assets";
        };
        FiPortfolioSummaryRow: {
            instrument_type: string;
            positions: number;
            valuation_national_thousands: number;
            valuation_foreign_thousands: number;
            /** @description Sum of the positions' weights (percent; a missing weight counts 0) */
            pct_fund_assets: number;
        };
        /** @description Positions ordered by weight in the fund's assets (largest first; without a weight last), then market and row */
        FiHoldingList: {
            data: components["schemas"]["FiHolding"][];
            meta: components["schemas"]["FiPortfolioMeta"];
        };
        FiHolding: {
            /**
             * @description N national portfolio, E foreign portfolio
             * @enum {string}
             */
            market: "N" | "E";
            /** @description Row of the position in the CMF page */
            position: number;
            instrument_type: string;
            nemotecnico: string | null;
            /** @description E only: ISIN or CUSIP */
            isin: string | null;
            /** @description N only: issuer RUT with check digit */
            issuer_rut: string | null;
            /** @description E only */
            issuer_name: string | null;
            issuer_country: string | null;
            esf_classification: string | null;
            maturity_date: string | null;
            instrument_status: string | null;
            risk_rating: string | null;
            business_group: string | null;
            units: number | null;
            units_type: string | null;
            rate_or_price: number | null;
            valuation_code: string | null;
            rate_base_days: number | null;
            interest_type: string | null;
            /** @description Valuation at the close, thousands of the functional currency */
            valuation_thousands: number;
            /** @description As the page says it: PESOS, DOLARES, … */
            functional_currency: string | null;
            settlement_currency: string | null;
            transaction_country: string | null;
            pct_issuer_capital: number | null;
            pct_issuer_assets: number | null;
            /** @description Percent of the fund's assets */
            pct_fund_assets: number | null;
        };
        /** @description Book values of every series of the instrument, ascending by date (then by series label) */
        FiPriceList: {
            data: components["schemas"]["FiPrice"][];
            meta: {
                /**
                 * @description The batch that answered (<batch date>-<16 hex digits of its content hash>); the same as the Batch-Id response header
                 * @example 2026-11-20-0123456789abcdef
                 */
                batch_id: string;
                /**
                 * @description When the batch was complete: the first instant after its batch date in America/Santiago (deterministic per batch)
                 * @example 2026-11-21T03:00:00Z
                 */
                generated_at: string;
                /**
                 * @description When the next batch is expected: the first instant after the next weekday after the batch date, America/Santiago (a holiday can delay it)
                 * @example 2026-11-21T03:00:00Z
                 */
                expires_at: string;
                /** @description Date of the published batch (YYYY-MM-DD) */
                batch_date: string;
                /** @description The FI/ETF data's shared cutoff: the latest CMF book-value date in the batch; statuses are relative to it */
                cutoff_date: string;
                /** @description UUID (v5 of a natural key; see docs/fi.md) */
                instrument_id: string;
                /** @enum {string} */
                price_source: "cmf";
                /** @enum {string} */
                price_basis: "valor_libro";
                /** @description The instrument's series, in the order rows of one date follow */
                series: components["schemas"]["FiSerieRef"][];
            };
            /** @description Rows in the date range, before paging */
            total: number;
            limit: number;
            offset: number;
            links: components["schemas"]["PageLinks"];
        };
        FiSerieRef: {
            /** @description UUID (v5 of a natural key; see docs/fi.md) */
            serie_id: string;
            /** @description Series label, upper case (UNICA, A, I, …) */
            serie: string;
            /** @description Currency of the book values as CMF writes it (CLP, USD, COP, …) */
            currency: string | null;
        };
        FiPrice: {
            /** @description YYYY-MM-DD */
            date: string;
            /** @description UUID (v5 of a natural key; see docs/fi.md) */
            serie_id: string;
            serie: string;
            currency: string | null;
            /** @description Valor libro of the quota (price_basis valor_libro) */
            book_value: number;
            /** @description Valor económico of the quota */
            economic_value: number | null;
            /** @description Patrimonio neto of the series */
            patrimony: number | null;
            /** @description Activo total of the fund */
            total_assets: number | null;
            /** @description Aportantes */
            holders: number | null;
            institutional_holders: number | null;
        };
        FiInstrumentDetail: {
            data: {
                /** @description UUID (v5 of a natural key; see docs/fi.md) */
                instrument_id: string;
                /** @description Fund RUN with check digit, e.g. 9251-K */
                run: string;
                name: string;
                vehicle: components["schemas"]["FiVehicle"];
                is_etf: boolean;
                /** @description Exchange ticker (ETFs), else null */
                ticker: string | null;
                /**
                 * @description CMF register: FIRES (fondo de inversión rescatable) or FINRE (no rescatable)
                 * @enum {string}
                 */
                regulatory_type: "FIRES" | "FINRE";
                /**
                 * @description CMF status: active (vigente list), inactive (no vigente list), unknown
                 * @enum {string}
                 */
                status: "active" | "inactive" | "unknown";
                /** @description Administrator id (CRC32; see docs/fi.md for administrators known only by name) */
                provider_id: number;
                /** @description Administrator name as the CMF list writes it */
                administrator: string;
                /** @description Date of the last CMF book value of any series */
                last_price_date: string | null;
                price_status: components["schemas"]["FiPriceStatus"];
                /** @description The series an instrument UUID resolves to (latest book value, then largest patrimony, then label); null without series */
                main_serie_id: string | null;
                /** @description Every series, ordered by label */
                series: components["schemas"]["FiSeriesDetail"][];
                regulatory: components["schemas"]["FiRegulatory"];
                /** @description null when the instrument has no series */
                latest_quota: components["schemas"]["FiLatestQuota"] | null;
                /** @description null without any book value */
                patrimony: components["schemas"]["FiPatrimony"] | null;
                /** @description null when the main series is not in the review */
                fact_sheet: components["schemas"]["FiFactSheet"] | null;
                tac: components["schemas"]["FiTac"];
                /** @description null when no regulation text was read for the RUN */
                article107: components["schemas"]["FiArticle107"] | null;
            };
            meta: components["schemas"]["FiMeta"];
        };
        FiMeta: {
            /**
             * @description The batch that answered (<batch date>-<16 hex digits of its content hash>); the same as the Batch-Id response header
             * @example 2026-11-20-0123456789abcdef
             */
            batch_id: string;
            /**
             * @description When the batch was complete: the first instant after its batch date in America/Santiago (deterministic per batch)
             * @example 2026-11-21T03:00:00Z
             */
            generated_at: string;
            /**
             * @description When the next batch is expected: the first instant after the next weekday after the batch date, America/Santiago (a holiday can delay it)
             * @example 2026-11-21T03:00:00Z
             */
            expires_at: string;
            /** @description Date of the published batch (YYYY-MM-DD) */
            batch_date: string;
            /** @description The FI/ETF data's shared cutoff: the latest CMF book-value date in the batch; statuses are relative to it */
            cutoff_date: string;
        };
        /** @description What the fund's internal regulation declares about article 107 */
        FiArticle107: {
            /** @enum {string} */
            status: "declares_eligible" | "declares_not_eligible" | "unknown";
            /** @description YYYY-MM-DD */
            regulation_date: string;
            series_exception: string[];
        };
        /** @description The main series' TAC and how far it can be trusted */
        FiTac: {
            serie_id: string | null;
            status: components["schemas"]["FiTacStatus"];
            /** @description TAC as a decimal fraction, only when status is available */
            value: number | null;
            /** @description The cutoff the status is relative to */
            as_of: string;
        };
        /**
         * @description available: reviewed sheet with a TAC, dated within 365 days of the FI cutoff; pending_review: TAC read, review pending; not_checked: the series is not in the fact-sheet review; stale: reviewed sheet older than 365 days or undated; not_reported: the sheet gives no TAC; unavailable_or_conflict: sources disagree, or a reviewed line without a TAC
         * @enum {string}
         */
        FiTacStatus: "available" | "pending_review" | "not_checked" | "stale" | "not_reported" | "unavailable_or_conflict";
        /** @description The main series' line of the CMF fact-sheet review, as read */
        FiFactSheet: {
            /** @description UUID (v5 of a natural key; see docs/fi.md) */
            serie_id: string;
            /** @description REVISADA, PENDIENTE, NO_INFORMADA or CONFLICTO, as the review file says */
            review: string;
            /** @description TAC read from the sheet, decimal fraction (whatever its review) */
            tac: number | null;
            sheet_date: string | null;
        };
        /** @description Patrimony and holders on the main series' last book-value date */
        FiPatrimony: {
            /** @description UUID (v5 of a natural key; see docs/fi.md) */
            serie_id: string;
            /** @description YYYY-MM-DD */
            date: string;
            currency: string | null;
            /** @description Patrimonio neto of the series */
            value: number | null;
            /** @description Activo total of the fund */
            total_assets: number | null;
            /** @description Aportantes */
            holders: number | null;
            institutional_holders: number | null;
        };
        /** @description Last CMF book value of the main series */
        FiLatestQuota: {
            /** @description UUID (v5 of a natural key; see docs/fi.md) */
            serie_id: string;
            serie: string;
            currency: string | null;
            date: string | null;
            /** @description Valor libro of the quota (the FI price), series currency */
            book_value: number | null;
            /** @description Valor económico of the quota */
            economic_value: number | null;
            /** @enum {string} */
            price_basis: "valor_libro";
            price_status: components["schemas"]["FiPriceStatus"];
        };
        /**
         * @description current: last CMF book value at most 7 calendar days before the FI cutoff; stale: older; unavailable: no book value at all
         * @enum {string}
         */
        FiPriceStatus: "current" | "stale" | "unavailable";
        /** @description CMF regulatory classification */
        FiRegulatory: {
            /**
             * @description CMF register: FIRES (fondo de inversión rescatable) or FINRE (no rescatable)
             * @enum {string}
             */
            type: "FIRES" | "FINRE";
            /** @description true for FIRES (rescatable), false for FINRE */
            redeemable: boolean;
            description: string;
        };
        FiSeriesDetail: {
            /** @description UUID (v5 of a natural key; see docs/fi.md) */
            serie_id: string;
            serie: string;
            currency: string | null;
            is_main: boolean;
            last_price_date: string | null;
            book_value: number | null;
            patrimony: number | null;
            holders: number | null;
            price_status: components["schemas"]["FiPriceStatus"];
            tac_status: components["schemas"]["FiTacStatus"];
            /** @description Only when tac_status is available */
            tac: number | null;
        };
        /** @enum {string} */
        FiVehicle: "investment_fund" | "etf";
        /** @description Investment funds and ETFs, ordered by name, then RUN */
        FiInstrumentList: {
            data: components["schemas"]["FiInstrument"][];
            meta: components["schemas"]["FiMeta"];
            /** @description Rows matching the filters, before paging */
            total: number;
            limit: number;
            offset: number;
            links: components["schemas"]["PageLinks"];
        };
        /** @description An investment fund or ETF */
        FiInstrument: {
            /** @description UUID (v5 of a natural key; see docs/fi.md) */
            instrument_id: string;
            /** @description Fund RUN with check digit, e.g. 9251-K */
            run: string;
            name: string;
            vehicle: components["schemas"]["FiVehicle"];
            is_etf: boolean;
            /** @description Exchange ticker (ETFs), else null */
            ticker: string | null;
            /**
             * @description CMF register: FIRES (fondo de inversión rescatable) or FINRE (no rescatable)
             * @enum {string}
             */
            regulatory_type: "FIRES" | "FINRE";
            /**
             * @description CMF status: active (vigente list), inactive (no vigente list), unknown
             * @enum {string}
             */
            status: "active" | "inactive" | "unknown";
            /** @description Administrator id (CRC32; see docs/fi.md for administrators known only by name) */
            provider_id: number;
            /** @description Administrator name as the CMF list writes it */
            administrator: string;
            /** @description Date of the last CMF book value of any series */
            last_price_date: string | null;
            price_status: components["schemas"]["FiPriceStatus"];
            /** @description The series an instrument UUID resolves to (latest book value, then largest patrimony, then label); null without series */
            main_serie_id: string | null;
            series: components["schemas"]["FiSerieRef"][];
        };
        ScreenerResponse: {
            /** @description One page; empty when nothing matches */
            data: components["schemas"]["MarketResource"][];
            meta: components["schemas"]["ScreenerMeta"];
            /** @description Series after filtering, before paging (the same as meta.total) */
            total: number;
            /** @description The same as meta.limit */
            limit: number;
            /** @description The same as meta.offset */
            offset: number;
            links: components["schemas"]["PageLinks"];
        };
        ScreenerMeta: {
            batch_id: string;
            /** @description YYYY-MM-DD */
            as_of_date: string;
            /** @description YYYY-MM-DD */
            calculation_date: string;
            calculated_at: string;
            input_fingerprint: string;
            tolerance_days: number;
            /** @description Series of the whole batch, before filtering */
            series_count: number;
            /** @enum {string} */
            method_version: "price_return_v1";
            /** @enum {string} */
            unit: "decimal";
            /** @enum {string} */
            return_basis: "price";
            latest_complete_date: string | null;
            cutoff_age_days: number;
            snapshot_lag_days: number | null;
            refresh_required: boolean;
            /** @description Series after filtering, before paging */
            total: number;
            limit: number;
            offset: number;
            /**
             * @description Present when the request gave `universe`: current_vigente or as_of
             * @enum {string}
             */
            universe?: "current_vigente" | "as_of";
        };
        MarketResource: {
            /** @description Decimal series id (the current id of a renamed series) */
            id: string;
            /** @enum {string} */
            type: "fund_comparison";
            attributes: components["schemas"]["MarketAttributes"];
        };
        /** @description Catalog at the published cutoff; each indicator keeps its own date */
        MarketAttributes: {
            agf: string | null;
            fundName: string;
            fundId: string;
            run: string;
            category: string | null;
            /** @description AFM RAR family */
            fundFamily: string | null;
            fundFamilyDisplay: string | null;
            fundFamilyStudies: string | null;
            serie: string;
            /** @description Decimal id (the current id of a renamed series) */
            serieId: string;
            /** @description The rename joining the series' history; null when the series has none */
            seriesContinuity?: components["schemas"]["SeriesContinuity"] | null;
            currency: ("PESOS" | "DOLAR") | null;
            /** @description Latest TAC, decimal fraction */
            tac: number | null;
            investorClass: string | null;
            classificationInvestorClass: string | null;
            classificationDate: string | null;
            price: number | null;
            dailyChange: number | null;
            monthlyChange: number | null;
            patrimony: number | null;
            previousPatrimony: number | null;
            monthlyPatrimony: number | null;
            shareholders: number | null;
            volatility_monthly_12m: number | null;
            volatility_monthly_36m: number | null;
            volatility_annualized_12m: number | null;
            volatility_annualized_36m: number | null;
            max_drawdown_36m: number | null;
            risk_level: string | null;
            risk_score: number | null;
            risk_as_of_date: string | null;
            risk_method_version: string | null;
            tac_as_of_date: string | null;
            price_as_of_date: string | null;
            cmf_spheres: components["schemas"]["CmfSpheres"];
            returns: components["schemas"]["ReturnAttributes"];
        };
        /** @description Price returns in the accounting currency, decimal scale */
        ReturnAttributes: {
            run: string;
            serie: string;
            /** @description Accounting currency; null when it is neither PESOS nor DOLAR */
            currency: ("PESOS" | "DOLAR") | null;
            requested_as_of_date: string | null;
            /** @description The last quota date on or before the batch date */
            as_of_date: string | null;
            periods: components["schemas"]["ReturnPeriods"];
            tolerance_days: number;
            /** @enum {string} */
            unit: "decimal";
            /** @enum {string} */
            return_basis: "price";
            /** @enum {string} */
            source: "own";
            /** @enum {string} */
            quota_source: "CMF";
            /** @enum {string} */
            method_version: "price_return_v1";
            /** @description Always empty: a price return in the accounting currency applies no adjustment */
            adjustments: ("distributions" | "exchanges" | "fx_to_clp" | "uf_deflation")[];
            /** @enum {string} */
            event_verification: "unavailable";
            /** @enum {string} */
            calculation_mode: "direct" | "snapshot";
            calculated_at: string | null;
            calculation_date: string | null;
            batch_id: string | null;
            input_fingerprint: string | null;
            latest_complete_date: string | null;
            cutoff_age_days: number | null;
            snapshot_lag_days: number | null;
            refresh_required: boolean;
        };
        ReturnPeriods: {
            "1m": components["schemas"]["ReturnPeriod"];
            "3m": components["schemas"]["ReturnPeriod"];
            "6m": components["schemas"]["ReturnPeriod"];
            "1y": components["schemas"]["ReturnPeriod"];
            ytd: components["schemas"]["ReturnPeriod"];
            "3y_ann": components["schemas"]["ReturnPeriod"];
            "5y_ann": components["schemas"]["ReturnPeriod"];
            last_closed_month: components["schemas"]["ReturnPeriod"];
        };
        /** @description A price return in the accounting currency */
        ReturnPeriod: {
            /** @description Decimal fraction (0.0132 = 1.32 %); null when unavailable */
            value: number | null;
            /** @enum {string} */
            status: "available" | "unavailable";
            /** @description True for 3y_ann and 5y_ann only: (1 + R)^(1/years) − 1 */
            annualized: boolean;
            /** @description The date the base quote is wanted on or before */
            target_start_date: string | null;
            /** @description The date the end quote is wanted on or before */
            target_end_date: string | null;
            /** @description Date of the base quote used */
            effective_start_date: string | null;
            /** @description Date of the end quote used */
            effective_end_date: string | null;
            inputs: components["schemas"]["PeriodInputs"];
            currency: ("PESOS" | "DOLAR") | null;
            reason: ("no_complete_cutoff" | "no_closed_month" | "missing_start_quote" | "missing_end_quote" | "invalid_start_quote" | "invalid_end_quote" | "stale_start_quote" | "stale_end_quote" | "unknown_currency" | "currency_change" | "known_discontinuity" | "non_finite_return") | null;
        };
        /** @description The quotas and indicator values behind a window */
        PeriodInputs: {
            start: components["schemas"]["EndpointInputs"] | null;
            end: components["schemas"]["EndpointInputs"] | null;
        };
        /** @description What one end (start or end) of a window used */
        EndpointInputs: {
            /** @description YYYY-MM-DD */
            quota_date: string;
            /** @description Quota value (VALOR_CUOTA) in the accounting currency */
            quota_value: number;
            quota_currency: ("PESOS" | "DOLAR" | "EURO") | null;
            fx: components["schemas"]["IndicatorInput"] | null;
            uf: components["schemas"]["IndicatorInput"] | null;
        };
        /** @description A UF or USD value a converted window used */
        IndicatorInput: {
            /**
             * @description uf: CLP per UF; dolar: observed USD rate, CLP per USD
             * @enum {string}
             */
            code: "uf" | "dolar";
            /** @description Date of the indicator value used */
            date: string;
            /** @description A decimal number written as a string */
            value: string;
            /** @enum {string} */
            unit: "CLP";
        };
        /** @description The CMF's spheres (risk-adjusted return rating) of the series */
        CmfSpheres: {
            /** @description 1 to 5 spheres; null when unavailable */
            value: number | null;
            /** @enum {string} */
            status: "available" | "unavailable";
            reason: ("source_unavailable" | "not_in_source" | "not_rated_by_cmf" | "source_after_requested_date" | "no_complete_cutoff") | null;
            /** @enum {string} */
            source: "CMF";
            /** @enum {string} */
            indicator: "ind_rar_pond";
            /** @enum {number} */
            scale_min: 1;
            /** @enum {number} */
            scale_max: 5;
            /** @description Date of the CMF rating, YYYY-MM-DD */
            as_of_date: string | null;
            /** @description The CMF's comparison family */
            family: string | null;
            /** @description The CMF's investor type */
            investor_type: string | null;
        };
        /** @description A renamed series: one identity, one continuous history, reachable by every id */
        SeriesContinuity: {
            /** @enum {string} */
            type: "rename";
            /** @description Label before the (latest) rename */
            previousSerie: string;
            /** @description Label after it */
            currentSerie: string;
            /** @description First observed date with the new label, YYYY-MM-DD */
            firstCurrentDate: string;
            /** @description The current id first, then the previous ids */
            aliasIds: string[];
        };
        CompareResponse: {
            /** @description Series in the requested order */
            data: components["schemas"]["MarketResource"][];
            meta: components["schemas"]["CompareMeta"];
        };
        CompareMeta: {
            batch_id: string;
            /** @description YYYY-MM-DD */
            as_of_date: string;
            /** @description YYYY-MM-DD */
            calculation_date: string;
            calculated_at: string;
            input_fingerprint: string;
            tolerance_days: number;
            /** @description Series of the whole batch, before filtering */
            series_count: number;
            /** @enum {string} */
            method_version: "price_return_v1";
            /** @enum {string} */
            unit: "decimal";
            /** @enum {string} */
            return_basis: "price";
            latest_complete_date: string | null;
            cutoff_age_days: number;
            snapshot_lag_days: number | null;
            refresh_required: boolean;
            comparability: components["schemas"]["PeriodComparability"];
            cmf_spheres_comparability: components["schemas"]["SpheresComparability"];
        };
        SpheresComparability: {
            comparable: boolean;
            reasons: ("unavailable_indicator" | "comparison_group_mismatch" | "as_of_date_mismatch" | "methodology_mismatch")[];
        };
        PeriodComparability: {
            "1m": components["schemas"]["ReturnComparability"];
            "3m": components["schemas"]["ReturnComparability"];
            "6m": components["schemas"]["ReturnComparability"];
            "1y": components["schemas"]["ReturnComparability"];
            ytd: components["schemas"]["ReturnComparability"];
            "3y_ann": components["schemas"]["ReturnComparability"];
            "5y_ann": components["schemas"]["ReturnComparability"];
            last_closed_month: components["schemas"]["ReturnComparability"];
        };
        ReturnComparability: {
            comparable: boolean;
            reasons: ("unavailable_return" | "currency_mismatch" | "effective_dates_mismatch" | "return_basis_mismatch")[];
        };
        Article107DetailResponse: {
            run: string;
            fundId: string;
            fundName: string;
            /** @enum {string} */
            article107RegulationStatus: "declares_eligible" | "declares_not_eligible" | "unknown";
            /** @enum {string} */
            sourceFreshness: "fresh" | "stale" | "unknown";
            statusReason: string | null;
            regulationDate: string | null;
            lastSuccessfulAssessmentAt: string | null;
            updatedAt: string | null;
            source: {
                cmfDocumentId: string | null;
                observedCmfDocumentId: string | null;
                url: string | null;
                sha256: string | null;
                cmfDepositDate: string | null;
                cmfLastModifiedDate: string | null;
                fetchedAt: string | null;
            };
            review: {
                status: string | null;
                reviewedAt: string | null;
                reviewedBy: string | null;
                note: string | null;
            };
            evidence: components["schemas"]["Article107EvidenceResponse"] | null;
            disclaimer: string;
        };
        Article107EvidenceResponse: {
            /** @description The first deciding sentence */
            text: string | null;
            page: number | null;
            offset: number | null;
            /** @description Line of the regulation where that sentence starts */
            line: number | null;
            section: string | null;
            /** @description Whether some series are excepted from the declaration */
            seriesException: boolean;
            /** @description The excepted series labels */
            exceptedSeries: string[];
            sentences: {
                line: number;
                text: string;
            }[];
            ruleId: string;
            parserVersion: string;
            classifierVersion: string;
        };
        /** @description Portfolio positions, largest weight first */
        HoldingsResponse: {
            data: {
                id: string;
                /** @enum {string} */
                type: "holding";
                attributes: {
                    /** @description nacional or extranjera */
                    market: string;
                    /** @description N or E */
                    market_code: string;
                    nemotecnico: string;
                    emisor: string | null;
                    emisor_rut: number | null;
                    pais: string | null;
                    tipo_instrumento: string;
                    fecha_vencimiento: string | null;
                    /** @description Thousands of the fund's functional currency, as CMF reports it */
                    valorizacion: number;
                    /** @description Percent of fund assets, as CMF reports it */
                    pct_activo_fondo: number;
                    /** @description The same weight as a decimal fraction */
                    weight: number;
                };
            }[];
            meta: {
                /**
                 * @description The batch that answered (<batch date>-<16 hex digits of its content hash>); the same as the Batch-Id response header
                 * @example 2026-11-20-0123456789abcdef
                 */
                batch_id: string;
                run: string;
                fundId: string;
                fundName: string;
                month: string;
                market: string;
                availability: {
                    N: string;
                    E: string;
                };
                valuation_unit: string;
                percentage_unit: string;
                count: number;
            };
        };
        /** @description Portfolio grouped by instrument type, national plus foreign */
        ResumenResponse: {
            data: {
                id: string;
                /** @enum {string} */
                type: "cartera_resumen";
                attributes: {
                    tipo_instrumento: string;
                    num_holdings: number;
                    valorizacion_nacional: number;
                    valorizacion_extranjera: number;
                    pct_activo_fondo: number;
                    weight: number;
                };
            }[];
            meta: {
                /**
                 * @description The batch that answered (<batch date>-<16 hex digits of its content hash>); the same as the Batch-Id response header
                 * @example 2026-11-20-0123456789abcdef
                 */
                batch_id: string;
                run: string;
                fundId: string;
                fundName: string;
                month: string;
                market: string;
                availability: {
                    N: string;
                    E: string;
                };
                valuation_unit: string;
                percentage_unit: string;
                count: number;
            };
        };
        FlowsResponse: {
            data: {
                /** @description YYYY-MM-DD (period=day) or YYYY-MM (period=month) */
                date: string;
                /** @description CLP, USD or EUR (another CMF currency code as given); CLP with currency=CLP */
                currency: string;
                /** @description Σ CUOTAS_APORTADAS × VALOR_CUOTA; null (currency=CLP) when no series-day had a rate */
                subscribed: number | null;
                /** @description Σ CUOTAS_RESCATADAS × VALOR_CUOTA */
                redeemed: number | null;
                /** @description Σ (CUOTAS_APORTADAS − CUOTAS_RESCATADAS) × VALOR_CUOTA: net subscriptions, negative for net redemptions */
                net: number | null;
                /** @description Distinct series summed */
                series_count: number;
                /** @description Series-days summed (one cartola row each) */
                series_days: number;
                /** @description Series-days with a quota value but no units reported (provisional BPR values): left out */
                unreported_days: number;
                /** @description Series-days without a CLP value (EUR, or USD without an observed dollar within 7 days): left out of the amounts when currency=CLP */
                unconverted_days: number;
            }[];
            meta: {
                /**
                 * @description The batch that answered (<batch date>-<16 hex digits of its content hash>); the same as the Batch-Id response header
                 * @example 2026-11-20-0123456789abcdef
                 */
                batch_id: string;
                level: string;
                id: string;
                /** @description The series (RUN-serie), fund, administrator or family named by id */
                name: string;
                /**
                 * @description day (default) or month (calendar months)
                 * @enum {string}
                 */
                period: "day" | "month";
                /** @description native or CLP, as asked */
                currency: string;
                from: string | null;
                to: string | null;
                /** @description The batch date: the last day or month may be partial */
                through_date: string;
                total: number;
                limit: number;
                offset: number;
                methodology: string;
            };
        };
        TacChangesResponse: {
            data: components["schemas"]["TacChange"][];
            meta: {
                /**
                 * @description The batch that answered (<batch date>-<16 hex digits of its content hash>); the same as the Batch-Id response header
                 * @example 2026-11-20-0123456789abcdef
                 */
                batch_id: string;
                /** @description Last day of the month compared */
                date: string;
                previousDate: string;
                currentMonthKey: string;
                previousMonthKey: string;
                direction: string;
                limit: number;
                category: string | null;
                /** @description Funds with a change in the direction, before the limit */
                total: number;
            };
        };
        TacChange: {
            fundId: string;
            fundName: string;
            agf: string;
            run: string;
            serie: string;
            serieId: string;
            category: string | null;
            investorClass: string;
            currency: string | null;
            patrimony: number | null;
            tac: number;
            tacPrevious: number;
            /** @description tac − tacPrevious, decimal fraction */
            tacDelta: number;
            /** @description tacDelta / tacPrevious, decimal fraction (0.1 = 10 %) */
            tacDeltaPct: number | null;
        };
        AgfEvolutionResponse: {
            /** @description One row per month: { month, <administrator name>: value | null, … } */
            data: {
                [key: string]: string | number | null;
            }[];
            meta: {
                /**
                 * @description The batch that answered (<batch date>-<16 hex digits of its content hash>); the same as the Batch-Id response header
                 * @example 2026-11-20-0123456789abcdef
                 */
                batch_id: string;
                metric: string;
                administrators: string[];
                from_month: string | null;
                to_month: string | null;
                currency: string | null;
                /** @description The batch date: the last month's values are its quotes up to this date (a partial month) */
                through_date: string;
                methodology: string;
            };
        };
        AgfRankingResponse: {
            data: {
                /** @description provider_id */
                id: string;
                /** @enum {string} */
                type: "agf_ranking";
                attributes: {
                    administrator: string;
                    /** @description CLP (USD series converted with the observed dollar of the date; EUR left out) */
                    total_patrimony: number;
                    total_shareholders: number;
                    fund_count: number;
                    rank: number;
                };
            }[];
            meta: {
                /**
                 * @description The batch that answered (<batch date>-<16 hex digits of its content hash>); the same as the Batch-Id response header
                 * @example 2026-11-20-0123456789abcdef
                 */
                batch_id: string;
                date: string | null;
                metric: string;
                /** @enum {string} */
                currency: "CLP";
                usdClp: number | null;
                /** @description Series whose patrimony could not be converted to CLP (EUR, or USD without a rate) */
                unconvertedSeries: number;
                methodology: string;
            };
        };
        /** @description Raw closes in the native currency; returns and conversion are left to the client */
        BenchmarkPrices: {
            data: {
                date: string;
                close: number;
                currency: string;
            }[];
            meta: {
                /**
                 * @description The batch that answered (<batch date>-<16 hex digits of its content hash>); the same as the Batch-Id response header
                 * @example 2026-11-20-0123456789abcdef
                 */
                batch_id: string;
                family_rar: string;
                family_slug: string | null;
                symbol: string | null;
                index_name: string | null;
                instrument_name: string | null;
                native_currency: string | null;
                /** @description False (and data empty) when the family has no benchmark */
                has_benchmark: boolean;
            };
        };
        /** @description Active benchmarks: RAR family → symbol, index, currency */
        BenchmarkCatalog: {
            data: components["schemas"]["Benchmark"][];
        };
        Benchmark: {
            /** @description The family's slug */
            id: string;
            /** @enum {string} */
            type: "benchmark";
            attributes: {
                family_rar: string;
                family_slug: string;
                symbol: string;
                index_name: string;
                instrument_name: string;
                /** @description USD or CLP */
                native_currency: string;
                asset_class: string;
                first_price_date: string | null;
                last_price_date: string | null;
            };
        };
        FamilyIndexResponse: {
            data: {
                date: string;
                value: number;
                change?: number;
            }[];
            meta: {
                /**
                 * @description The batch that answered (<batch date>-<16 hex digits of its content hash>); the same as the Batch-Id response header
                 * @example 2026-11-20-0123456789abcdef
                 */
                batch_id: string;
                family: string;
                family_slug: string | null;
                currency: string | null;
                availableCurrencies: string[];
                base: number;
                baseDate: string | null;
                methodology: string;
                methodologyDescription: string;
                available: boolean;
            };
        };
        MarketSummaryResponse: {
            meta: {
                /**
                 * @description The batch that answered (<batch date>-<16 hex digits of its content hash>); the same as the Batch-Id response header
                 * @example 2026-11-20-0123456789abcdef
                 */
                batch_id: string;
                date: string;
                previousDate: string | null;
                monthlyBaseDate: string;
                batchDate: string;
                /** @description The rules: changes, families, movers (outliers), universe */
                methodology: {
                    [key: string]: string;
                };
                /** @description current_vigente: series of funds current in the CMF registry that still report; as_of: the series alive on the requested date (universe=as_of), funds closed since included */
                universe: string;
                /** @description True for a date before the batch's: a backtest over today's funds (universe current_vigente) or over those alive then (as_of) */
                backtest: boolean;
                /** @description What a backtest over today's funds leaves out; null at the batch's date and with universe=as_of */
                survivorshipBias: string | null;
                usdClp: number | null;
                classification: {
                    available: boolean;
                    /** @description Date of the AFM classification used (YYYY-MM-DD) */
                    reportDate: string | null;
                    classifiedSeries: number;
                    unclassifiedSeries: number;
                    coverageByPatrimonyClp: number | null;
                };
                topN: number;
            };
            families: components["schemas"]["FamilySummary"][];
            topGainersDaily: components["schemas"]["MarketMover"][];
            topLosersDaily: components["schemas"]["MarketMover"][];
            topGainersMonthly: components["schemas"]["MarketMover"][];
            topLosersMonthly: components["schemas"]["MarketMover"][];
        };
        MarketMover: {
            run: string;
            serie: string;
            serieId: string;
            fundId: string;
            fundName: string;
            agf: string;
            category: string | null;
            family: string | null;
            currency: string | null;
            price: number;
            dailyChange: number | null;
            monthlyChange: number | null;
            patrimony: number | null;
        };
        FamilySummary: {
            family: string;
            name: string;
            slug: string | null;
            displayGroup: string | null;
            /** @description PESOS or DOLAR: the currency with the largest patrimony in CLP */
            indexCurrency: string;
            dailyChange: number | null;
            monthlyChange: number | null;
            patrimonyClp: number | null;
            seriesCount: number;
            fundCount: number;
            byCurrency: {
                [key: string]: {
                    dailyChange: number | null;
                    monthlyChange: number | null;
                    patrimony: number | null;
                    seriesCount: number;
                };
            };
        };
        /** @description Every active instrument of the vehicle with its price, daily and monthly change and TAC */
        AllFundsResponse: {
            data: (components["schemas"]["AllFundsRow"] | components["schemas"]["AllFundsFiRow"])[];
            meta: components["schemas"]["AllFundsMeta"];
        };
        AllFundsMeta: {
            /**
             * @description The batch that answered (<batch date>-<16 hex digits of its content hash>); the same as the Batch-Id response header
             * @example 2026-11-20-0123456789abcdef
             */
            batch_id: string;
            vehicle: string;
            date: string | null;
            previousDate: string | null;
            agfCount: number;
            etfAgfCount?: number;
            investmentFundAgfCount?: number;
            datesByVehicle?: {
                mutual_fund: {
                    date: string | null;
                    previousDate: string | null;
                };
                etf: {
                    date: string | null;
                    previousDate: string | null;
                };
                investment_fund: {
                    date: string | null;
                    previousDate: string | null;
                };
            };
            count: number;
            /**
             * @description Present when the request gave `universe`: current_vigente or as_of
             * @enum {string}
             */
            universe?: "current_vigente" | "as_of";
        };
        /** @description An investment fund or ETF row (vehicle etf or investment_fund): one per series, or one for an instrument without series (serieId null) */
        AllFundsFiRow: components["schemas"]["AllFundsFiSeriesRow"] | components["schemas"]["AllFundsFiNoSeriesRow"];
        /** @description An active investment fund or ETF without any series (no book value ever): one row, its series fields null, price_status unavailable */
        AllFundsFiNoSeriesRow: {
            vehicle: components["schemas"]["FiVehicle"];
            /** @description Administrator name as the CMF list writes it */
            agf: string;
            fundName: string;
            /** @description fi:{RUN} (RUN without check digit) */
            fundId: string;
            /** @description Fund RUN with check digit */
            run: string;
            /** @description category: mutual funds only, null on FI/ETF rows */
            category: null;
            /** @description fundFamily: mutual funds only, null on FI/ETF rows */
            fundFamily: null;
            serie: null;
            serieId: null;
            currency: null;
            tac: null;
            /** @description investorClass: mutual funds only, null on FI/ETF rows */
            investorClass: null;
            price: null;
            price_as_of_date: null;
            /**
             * @description `price` is the CMF book value (valor libro)
             * @enum {string}
             */
            price_basis: "valor_libro";
            /** @enum {string} */
            price_status: "unavailable";
            dailyChange: null;
            monthlyChange: null;
            patrimony: null;
            previousPatrimony: null;
            monthlyPatrimony: null;
            shareholders: null;
            /** @description article107RegulationStatus: mutual funds only, null on FI/ETF rows */
            article107RegulationStatus: null;
            /** @description seriesContinuity: mutual funds only, null on FI/ETF rows */
            seriesContinuity: null;
            /** @description Exchange ticker (ETFs), else null */
            ticker: string | null;
        };
        /** @description A series of an active investment fund or ETF */
        AllFundsFiSeriesRow: {
            vehicle: components["schemas"]["FiVehicle"];
            /** @description Administrator name as the CMF list writes it */
            agf: string;
            fundName: string;
            /** @description fi:{RUN} (RUN without check digit) */
            fundId: string;
            /** @description Fund RUN with check digit */
            run: string;
            /** @description category: mutual funds only, null on FI/ETF rows */
            category: null;
            /** @description fundFamily: mutual funds only, null on FI/ETF rows */
            fundFamily: null;
            /** @description Series label, upper case (UNICA, A, I, …) */
            serie: string;
            /** @description UUID (v5 of a natural key; see docs/fi.md) */
            serieId: string;
            /** @description Currency of the book values as CMF writes it (CLP, USD, COP, …) */
            currency: string | null;
            /** @description The fact sheet's TAC (decimal fraction) when its status is available at the cutoff and the sheet is not dated after it; else null */
            tac: number | null;
            /** @description investorClass: mutual funds only, null on FI/ETF rows */
            investorClass: null;
            /** @description Last CMF book value on or before the FI/ETF cutoff; null when there is none */
            price: number | null;
            /** @description Date of the book value behind `price`; null when there is none */
            price_as_of_date: string | null;
            /**
             * @description `price` is the CMF book value (valor libro)
             * @enum {string}
             */
            price_basis: "valor_libro";
            price_status: components["schemas"]["FiPriceStatus"];
            /** @description Decimal fraction vs the previous FI/ETF date; null unless price_status is current */
            dailyChange: number | null;
            /** @description Decimal fraction vs the last value on or before the cutoff − 1 month; null unless price_status is current */
            monthlyChange: number | null;
            patrimony: number | null;
            previousPatrimony: number | null;
            monthlyPatrimony: number | null;
            shareholders: number | null;
            /** @description article107RegulationStatus: mutual funds only, null on FI/ETF rows */
            article107RegulationStatus: null;
            /** @description seriesContinuity: mutual funds only, null on FI/ETF rows */
            seriesContinuity: null;
            /** @description Exchange ticker (ETFs), else null */
            ticker: string | null;
        };
        /** @description A mutual fund series (vehicle mutual_fund) */
        AllFundsRow: {
            /** @enum {string} */
            vehicle: "mutual_fund";
            agf: string;
            fundName: string;
            /** @description The fund's concept id */
            fundId: string;
            run: string;
            category: string | null;
            /** @description AFM RAR family; null when unclassified */
            fundFamily: string | null;
            serie: string;
            /** @description Decimal id (the current id of a renamed series) */
            serieId: string;
            /** @description CLP, USD or EUR */
            currency: string | null;
            /** @description Latest TAC on or before the date's month, decimal fraction */
            tac: number | null;
            investorClass: string | null;
            price: number;
            /** @description Date of the quote behind `price` */
            price_as_of_date: string;
            /** @description Decimal fraction vs the previous market date */
            dailyChange: number | null;
            /** @description Decimal fraction vs the last quote on or before date − 1 month */
            monthlyChange: number | null;
            patrimony: number | null;
            previousPatrimony: number | null;
            monthlyPatrimony: number | null;
            shareholders: number | null;
            /** @description σ of daily simple quota returns over 12 months × √21 (as /risk_metrics) */
            volatility_monthly_12m: number | null;
            /** @description σ of daily simple quota returns over 36 months × √21 */
            volatility_monthly_36m: number | null;
            /** @description σ over 12 months × √252 */
            volatility_annualized_12m: number | null;
            /** @description σ over 36 months × √252 */
            volatility_annualized_36m: number | null;
            /** @description Worst fall from a running peak of the quota over 36 months (≤ 0) */
            max_drawdown_36m: number | null;
            /** @description very_low … very_high, from volatility_annualized_12m */
            risk_level: string | null;
            /** @description 1–7 from volatility_annualized_12m (SRRI-like bands) */
            risk_score: number | null;
            /** @description D of the risk figures: the last quote on or before the row's date */
            risk_as_of_date: string | null;
            risk_method_version: string | null;
            article107RegulationStatus: string | null;
            seriesContinuity: components["schemas"]["SeriesContinuity"] | null;
        };
        /** @description Monthly TAC of a series, ascending; an empty list when none is documented */
        ExpenseRatioHistory: {
            data: components["schemas"]["ExpenseRatioMonth"][];
        };
        ExpenseRatioMonth: {
            /** @description <asset_id>_<YYYYMMDD> */
            id: string;
            /** @enum {string} */
            type: "expense_ratio_month";
            attributes: {
                /** @description Last day of the month, YYYYMMDD */
                date: string;
                /** @description TAC of that month, decimal fraction */
                expense_ratio: number;
            };
        };
        /** @description The TAC (annual cost ratio) of a series */
        ExpenseRatioResponse: {
            data: {
                /** @description The requested asset_id, as given */
                id: string;
                /** @enum {string} */
                type: "expense_ratio";
                attributes: {
                    /** @description TAC of the latest month documented, as a decimal fraction (1.32 % = 0.0132); null when none (FI/ETF ids: the fact sheet's TAC, only when tac_status is available) */
                    expense_ratio: number | null;
                    /** @description APV, Institutional or Retail, from the series label; null for FI/ETF ids */
                    investor_class: string | null;
                    /** @description Month of that TAC, YYYY-MM (FI/ETF ids: the fact sheet's month); null when none */
                    month: string | null;
                    tac_status?: components["schemas"]["FiTacStatus"] & unknown;
                    /**
                     * @description Present for FI/ETF ids (UUID asset_id) only, absent for FM series. The TAC comes from the CMF fact sheet (ficha), as reviewed
                     * @enum {string}
                     */
                    source?: "cmf_fact_sheet";
                };
            };
        };
        /** @description The latest risk snapshot of a series (decimal fractions) */
        RiskMetricsResponse: {
            data: {
                /** @description The requested asset_id, as given */
                id: string;
                /** @enum {string} */
                type: "risk_metrics";
                attributes: components["schemas"]["RiskMetricsAttributes"];
            };
        };
        RiskMetricsAttributes: {
            run: string;
            /** @description Series label current at as_of_date */
            serie: string;
            /** @description D: the last quota date on or before the batch date (for FI/ETF ids, the FI cutoff) */
            as_of_date: string | null;
            /** @description σ of daily simple returns over 12 months × √21 */
            volatility_monthly_12m: number | null;
            /** @description σ of daily simple returns over 36 months × √21 */
            volatility_monthly_36m: number | null;
            /** @description σ over 12 months × √252 */
            volatility_annualized_12m: number | null;
            /** @description σ over 36 months × √252 */
            volatility_annualized_36m: number | null;
            /** @description Worst fall from a running peak of the quota over 36 months (≤ 0) */
            max_drawdown_36m: number | null;
            risk_level: ("very_low" | "low" | "medium_low" | "medium" | "medium_high" | "high" | "very_high") | null;
            /** @description 1–7 from volatility_annualized_12m: <0.5 %, 0.5–2 %, 2–5 %, 5–10 %, 10–15 %, 15–25 %, ≥25 % */
            risk_score: number | null;
            method_version: string;
            /** @description Why no figure could be computed; null when at least one is */
            unavailable_reason: ("no_quota_at_cutoff" | "insufficient_history" | "unknown_currency") | null;
            /**
             * @description Present for FI/ETF ids (UUID asset_id) only, absent for FM series. Which price of the quota: valor_libro, its book value (not a market close)
             * @enum {string}
             */
            price_basis?: "valor_libro";
        };
        /** @description Total returns: distributions reinvested and adjustments applied, in windows with verified coverage */
        TotalReturnResponse: {
            data: {
                /** @description The requested asset_id, as given */
                id: string;
                /** @enum {string} */
                type: "real_asset_returns";
                attributes: components["schemas"]["TotalReturnAttributes"];
            };
        };
        TotalReturnAttributes: {
            /** @description Fund RUN with check digit */
            run: string;
            /** @description Series label current at the requested cutoff (renamed series) */
            serie: string;
            /** @description The cutoff asked for (when none was given: the batch date; for FI/ETF ids the FI cutoff) */
            requested_as_of_date: string;
            /** @description D: the last quota date on or before the cutoff */
            as_of_date: string | null;
            /** @description Max calendar days a base or end quote may lie before its target */
            tolerance_days: number;
            /** @enum {string} */
            unit: "decimal";
            /** @enum {string} */
            source: "own";
            /** @enum {string} */
            quota_source: "CMF";
            /**
             * @description snapshot: precomputed in the batch (latest cutoff); direct: computed for this request from the batch's history
             * @enum {string}
             */
            calculation_mode: "snapshot" | "direct";
            /** @description Date of the published batch the answer comes from */
            calculation_date: string;
            /** @description The snapshot that answered (<batch date>-<content hash prefix>) */
            batch_id: string;
            /** @description SHA-256 content hash of that snapshot */
            input_fingerprint: string;
            /** @description The latest cutoff this batch can answer: its batch date (for FI/ETF ids, the FI cutoff) */
            latest_complete_date: string;
            /** @description Calendar days from as_of_date to the requested cutoff */
            cutoff_age_days: number | null;
            cmf_spheres: components["schemas"]["CmfSpheres"];
            series_continuity: components["schemas"]["SeriesContinuity"] | null;
            currency: ("PESOS" | "DOLAR" | "UF") | null;
            periods: components["schemas"]["TotalReturnPeriods"];
            /** @enum {string} */
            valuation: "accounting" | "clp" | "real_uf";
            /** @enum {string} */
            return_basis: "total";
            /** @enum {string} */
            method_version: "total_return_v1" | "total_return_clp_v1" | "total_return_real_uf_v1";
            /** @enum {string} */
            factor_source: "CMF";
            /** @enum {string} */
            event_verification: "per_period";
            /** @enum {string} */
            reinvestment_policy: "published_distribution_factors";
            /** @enum {string} */
            continuation_policy: "verified_forward_only";
            /** @enum {string} */
            fx_date_policy: "on_or_before_quota_date";
            fx_tolerance_days: number;
            /** @enum {string} */
            uf_date_policy: "exact";
            adjustments: ("distributions" | "exchanges" | "fx_to_clp" | "uf_deflation")[];
        };
        TotalReturnPeriods: {
            "1m": components["schemas"]["TotalReturnPeriod"];
            "3m": components["schemas"]["TotalReturnPeriod"];
            "6m": components["schemas"]["TotalReturnPeriod"];
            "1y": components["schemas"]["TotalReturnPeriod"];
            ytd: components["schemas"]["TotalReturnPeriod"];
            "3y_ann": components["schemas"]["TotalReturnPeriod"];
            "5y_ann": components["schemas"]["TotalReturnPeriod"];
            last_closed_month: components["schemas"]["TotalReturnPeriod"];
        };
        /** @description A total return: distributions reinvested, adjustments applied */
        TotalReturnPeriod: {
            /** @description Decimal fraction (0.0132 = 1.32 %); null when unavailable */
            value: number | null;
            /** @enum {string} */
            status: "available" | "unavailable";
            /** @description True for 3y_ann and 5y_ann only: (1 + R)^(1/years) − 1 */
            annualized: boolean;
            /** @description The date the base quote is wanted on or before */
            target_start_date: string | null;
            /** @description The date the end quote is wanted on or before */
            target_end_date: string | null;
            /** @description Date of the base quote used */
            effective_start_date: string | null;
            /** @description Date of the end quote used */
            effective_end_date: string | null;
            inputs: components["schemas"]["PeriodInputs"];
            currency: ("PESOS" | "DOLAR" | "UF") | null;
            reason: ("no_complete_cutoff" | "no_closed_month" | "missing_start_quote" | "missing_end_quote" | "invalid_start_quote" | "invalid_end_quote" | "stale_start_quote" | "stale_end_quote" | "unknown_currency" | "currency_change" | "known_discontinuity" | "non_finite_return" | "missing_start_fx" | "missing_end_fx" | "stale_start_fx" | "stale_end_fx" | "invalid_start_fx" | "invalid_end_fx" | "missing_start_uf" | "missing_end_uf" | "invalid_start_uf" | "invalid_end_uf" | "missing_factor_coverage" | "factor_quote_mismatch" | "factor_currency_mismatch" | "invalid_distribution_factor" | "unsupported_adjustment" | "duplicate_factor_date" | "ambiguous_continuation" | "continuation_cycle" | "continuation_limit" | "invalid_continuation" | "origin_not_active_at_start" | "ambiguous_exchange_distribution") | null;
            factor_coverage: components["schemas"]["FactorCoverage"][];
            applied_distributions: components["schemas"]["AppliedDistribution"][];
            applied_exchanges: components["schemas"]["AppliedExchange"][];
            /** @description Product of the applied FACTOR DE REPARTO */
            distribution_multiplier: string | null;
            /** @description Product of the applied FACTOR DE AJUSTE */
            exchange_multiplier: string | null;
        };
        /** @description An adjustment (FACTOR DE AJUSTE) applied inside a window */
        AppliedExchange: {
            /** @description <asset_id>:<YYYYMMDD> */
            event_id: string;
            revision: number;
            origin_run: string;
            origin_serie: string;
            destination_run: string;
            destination_serie: string;
            /** @description YYYY-MM-DD */
            effective_date: string;
            /** @description YYYY-MM-DD */
            valuation_date: string;
            /** @description FACTOR DE AJUSTE as CMF published it */
            factor: string;
        };
        /** @description A distribution reinvested inside a window */
        AppliedDistribution: {
            run: string;
            /** @description Series label on that date */
            serie: string;
            /** @description YYYY-MM-DD */
            date: string;
            /** @description FACTOR DE REPARTO as CMF published it */
            factor: string;
        };
        /** @description A stretch (per series label) whose daily CMF records were all seen: no gap over 7 calendar days between quotas */
        FactorCoverage: {
            run: string;
            serie: string;
            /** @description YYYY-MM-DD */
            start_date: string;
            /** @description YYYY-MM-DD */
            end_date: string;
            calendar_days: number;
        };
        /** @description Price returns converted to CLP or deflated by the UF (valuation=clp or real_uf) */
        AdjustedReturnResponse: {
            data: {
                /** @description The requested asset_id, as given */
                id: string;
                /** @enum {string} */
                type: "real_asset_returns";
                attributes: components["schemas"]["AdjustedReturnAttributes"];
            };
        };
        AdjustedReturnAttributes: {
            /** @description Fund RUN with check digit */
            run: string;
            /** @description Series label current at the requested cutoff (renamed series) */
            serie: string;
            /** @description The cutoff asked for (when none was given: the batch date; for FI/ETF ids the FI cutoff) */
            requested_as_of_date: string;
            /** @description D: the last quota date on or before the cutoff */
            as_of_date: string | null;
            /** @description Max calendar days a base or end quote may lie before its target */
            tolerance_days: number;
            /** @enum {string} */
            unit: "decimal";
            /** @enum {string} */
            source: "own";
            /**
             * @description CMF: the CMF's daily quota values (FM series); cmf_valor_libro: CMF book values (FI/ETF ids); market_close: market closing prices (in the contract's enum; no series answers with it yet)
             * @enum {string}
             */
            quota_source: "CMF" | "market_close" | "cmf_valor_libro";
            /**
             * @description snapshot: precomputed in the batch (latest cutoff); direct: computed for this request from the batch's history
             * @enum {string}
             */
            calculation_mode: "snapshot" | "direct";
            /** @description Date of the published batch the answer comes from */
            calculation_date: string;
            /** @description The snapshot that answered (<batch date>-<content hash prefix>) */
            batch_id: string;
            /** @description SHA-256 content hash of that snapshot */
            input_fingerprint: string;
            /** @description The latest cutoff this batch can answer: its batch date (for FI/ETF ids, the FI cutoff) */
            latest_complete_date: string;
            /** @description Calendar days from as_of_date to the requested cutoff */
            cutoff_age_days: number | null;
            cmf_spheres: components["schemas"]["CmfSpheres"];
            series_continuity: components["schemas"]["SeriesContinuity"] | null;
            /**
             * @description Present for FI/ETF ids (UUID asset_id) only, absent for FM series. Where the prices come from: cmf, the CMF's daily FI/ETF book values
             * @enum {string}
             */
            price_source?: "cmf";
            /**
             * @description Present for FI/ETF ids (UUID asset_id) only, absent for FM series. Which price of the quota: valor_libro, its book value (not a market close)
             * @enum {string}
             */
            price_basis?: "valor_libro";
            /** @description Present for FI/ETF ids (UUID asset_id) only, absent for FM series. The instrument's accounting currency as CMF writes it (CLP, USD, EUR, COP…) */
            accounting_currency?: string | null;
            currency: ("PESOS" | "UF") | null;
            periods: components["schemas"]["AdjustedReturnPeriods"];
            /** @enum {string} */
            valuation: "clp" | "real_uf";
            /** @enum {string} */
            return_basis: "price";
            /** @enum {string} */
            method_version: "price_return_clp_v1" | "price_return_real_uf_v1";
            fx_tolerance_days: number;
            /** @enum {string} */
            uf_date_policy: "exact";
            adjustments: ("fx_to_clp" | "uf_deflation")[];
            /** @enum {string} */
            event_verification: "unavailable";
        };
        AdjustedReturnPeriods: {
            "1m": components["schemas"]["AdjustedReturnPeriod"];
            "3m": components["schemas"]["AdjustedReturnPeriod"];
            "6m": components["schemas"]["AdjustedReturnPeriod"];
            "1y": components["schemas"]["AdjustedReturnPeriod"];
            ytd: components["schemas"]["AdjustedReturnPeriod"];
            "3y_ann": components["schemas"]["AdjustedReturnPeriod"];
            "5y_ann": components["schemas"]["AdjustedReturnPeriod"];
            last_closed_month: components["schemas"]["AdjustedReturnPeriod"];
        };
        /** @description A price return in CLP or in real UF terms */
        AdjustedReturnPeriod: {
            /** @description Decimal fraction (0.0132 = 1.32 %); null when unavailable */
            value: number | null;
            /** @enum {string} */
            status: "available" | "unavailable";
            /** @description True for 3y_ann and 5y_ann only: (1 + R)^(1/years) − 1 */
            annualized: boolean;
            /** @description The date the base quote is wanted on or before */
            target_start_date: string | null;
            /** @description The date the end quote is wanted on or before */
            target_end_date: string | null;
            /** @description Date of the base quote used */
            effective_start_date: string | null;
            /** @description Date of the end quote used */
            effective_end_date: string | null;
            inputs: components["schemas"]["PeriodInputs"];
            currency: ("PESOS" | "UF") | null;
            reason: ("no_complete_cutoff" | "no_closed_month" | "missing_start_quote" | "missing_end_quote" | "invalid_start_quote" | "invalid_end_quote" | "stale_start_quote" | "stale_end_quote" | "unknown_currency" | "currency_change" | "known_discontinuity" | "non_finite_return" | "missing_start_fx" | "missing_end_fx" | "stale_start_fx" | "stale_end_fx" | "invalid_start_fx" | "invalid_end_fx" | "missing_start_uf" | "missing_end_uf" | "invalid_start_uf" | "invalid_end_uf") | null;
        };
        /** @description Price returns in the accounting currency (valuation=accounting, return_basis=price) */
        FundReturnResponse: {
            data: {
                /** @description The requested asset_id, as given */
                id: string;
                /** @enum {string} */
                type: "real_asset_returns";
                attributes: components["schemas"]["FundReturnAttributes"];
            };
        };
        FundReturnAttributes: {
            /** @description Fund RUN with check digit */
            run: string;
            /** @description Series label current at the requested cutoff (renamed series) */
            serie: string;
            /** @description The cutoff asked for (when none was given: the batch date; for FI/ETF ids the FI cutoff) */
            requested_as_of_date: string;
            /** @description D: the last quota date on or before the cutoff */
            as_of_date: string | null;
            /** @description Max calendar days a base or end quote may lie before its target */
            tolerance_days: number;
            /** @enum {string} */
            unit: "decimal";
            /** @enum {string} */
            source: "own";
            /**
             * @description CMF: the CMF's daily quota values (FM series); cmf_valor_libro: CMF book values (FI/ETF ids); market_close: market closing prices (in the contract's enum; no series answers with it yet)
             * @enum {string}
             */
            quota_source: "CMF" | "market_close" | "cmf_valor_libro";
            /**
             * @description snapshot: precomputed in the batch (latest cutoff); direct: computed for this request from the batch's history
             * @enum {string}
             */
            calculation_mode: "snapshot" | "direct";
            /** @description Date of the published batch the answer comes from */
            calculation_date: string;
            /** @description The snapshot that answered (<batch date>-<content hash prefix>) */
            batch_id: string;
            /** @description SHA-256 content hash of that snapshot */
            input_fingerprint: string;
            /** @description The latest cutoff this batch can answer: its batch date (for FI/ETF ids, the FI cutoff) */
            latest_complete_date: string;
            /** @description Calendar days from as_of_date to the requested cutoff */
            cutoff_age_days: number | null;
            cmf_spheres: components["schemas"]["CmfSpheres"];
            series_continuity: components["schemas"]["SeriesContinuity"] | null;
            /**
             * @description Present for FI/ETF ids (UUID asset_id) only, absent for FM series. Where the prices come from: cmf, the CMF's daily FI/ETF book values
             * @enum {string}
             */
            price_source?: "cmf";
            /**
             * @description Present for FI/ETF ids (UUID asset_id) only, absent for FM series. Which price of the quota: valor_libro, its book value (not a market close)
             * @enum {string}
             */
            price_basis?: "valor_libro";
            /** @description Present for FI/ETF ids (UUID asset_id) only, absent for FM series. The instrument's accounting currency as CMF writes it (CLP, USD, EUR, COP…) */
            accounting_currency?: string | null;
            currency: ("PESOS" | "DOLAR") | null;
            periods: components["schemas"]["ReturnPeriods"];
            /** @enum {string} */
            valuation: "accounting";
            /** @enum {string} */
            return_basis: "price";
            /** @enum {string} */
            method_version: "price_return_v1";
            /** @description Always empty: a price return in the accounting currency applies no adjustment */
            adjustments: ("distributions" | "exchanges" | "fx_to_clp" | "uf_deflation")[];
            /** @enum {string} */
            event_verification: "unavailable";
        };
        /** @description Daily quota values (FM) or CMF book values (FI/ETF ids), ascending by date, never truncated */
        RealAssetDays: {
            data: components["schemas"]["RealAssetDay"][];
            meta: {
                /**
                 * @description The batch that answered (<batch date>-<16 hex digits of its content hash>); the same as the Batch-Id response header
                 * @example 2026-11-20-0123456789abcdef
                 */
                batch_id: string;
                asset_id: string;
                /** @description Date of the published batch that answered */
                batch_date: string;
                count: number;
                /** @description Present for FI/ETF ids (UUID asset_id) only, absent for FM series. UUID of the series whose book values these are (an instrument UUID answers for its main series) */
                serie_id?: string;
            };
        };
        RealAssetDay: {
            /** @description <asset_id>_<date> */
            id: string;
            /** @enum {string} */
            type: "real_asset_day";
            attributes: {
                date: string;
                /** @description Quota value (FM) or CMF book value (FI/ETF ids) */
                price: number;
                /** @description Present for FI/ETF ids (UUID asset_id) only, absent for FM series. The instrument's accounting currency as CMF writes it (CLP, USD, EUR, COP…) */
                currency?: string | null;
                /**
                 * @description Present for FI/ETF ids (UUID asset_id) only, absent for FM series. Where the prices come from: cmf, the CMF's daily FI/ETF book values
                 * @enum {string}
                 */
                price_source?: "cmf";
                /**
                 * @description Present for FI/ETF ids (UUID asset_id) only, absent for FM series. Which price of the quota: valor_libro, its book value (not a market close)
                 * @enum {string}
                 */
                price_basis?: "valor_libro";
            };
        };
        RealAssetList: {
            data: components["schemas"]["RealAsset"][];
        };
        /** @description One series of a fund */
        RealAsset: {
            /** @description Decimal id (CRC32 of a natural key), as a string */
            id: string;
            /** @enum {string} */
            type: "real_asset";
            attributes: {
                name: string;
                serie: string;
                run: string;
                currency: string | null;
                /** @description APV, Institutional or Retail, from the series label */
                investor_class: string;
                /** @description First quota date published for the series */
                start_date: string | null;
                /** @description Date of the last quota once the series has ended: its fund has a CMF registry end date on or before the batch date, or it has gone more than the grace period (10 weekdays by default) without a quota. Null while the series is active, even when its last quota is a few days old (last_day.date gives its date) */
                end_date: string | null;
                last_day: components["schemas"]["LastDay"] | null;
            };
        };
        LastDay: {
            /** @description Quota value in the series currency */
            net_asset_value: number;
            /** @description Patrimony (PATRIMONIO_NETO), series currency */
            total_net_assets: number | null;
            /** @description Number of holders (NUM_PARTICIPES) */
            shareholders: number | null;
            /** @description Date of this quota, the series' latest: before the batch date when the series reports late */
            date: string;
            /**
             * @description Where this quota comes from: the CMF's daily cartola (final), or its daily BPR report (provisional: valor cuota to 4 decimals, no distribution factors; the cartola of that day replaces it, and the batch manifest records any correction)
             * @enum {string}
             */
            quota_source: "cartola" | "bpr";
        };
        /** @description The administrator's current funds: no CMF registry end date on or before the batch date, and an active series (see RealAsset end_date) or none yet */
        ConceptualAssetList: {
            data: components["schemas"]["ConceptualAsset"][];
        };
        /** @description A mutual fund (all its series) */
        ConceptualAsset: {
            /** @description Decimal id (CRC32 of a natural key), as a string */
            id: string;
            /** @enum {string} */
            type: "conceptual_asset";
            attributes: {
                name: string;
                /** @description RUN with check digit, e.g. 8043-8 */
                symbol: string;
                /** @description Fund RUN with check digit */
                run: string;
                /** @description CMF fund type (1–8) as a word: money_market_90d, debt_365d, debt_medium_long, balanced, equity, free_investment, structured, qualified_investors */
                category: string | null;
                /** @description CLP, USD or EUR */
                currency: string | null;
                /** @description CMF fund type code 1–8 */
                cmf_fund_type: number | null;
            };
        };
        AssetProviderList: {
            data: components["schemas"]["AssetProvider"][];
        };
        /** @description A fund administrator (AGF) */
        AssetProvider: {
            /** @description Decimal id (CRC32 of a natural key), as a string */
            id: string;
            /** @enum {string} */
            type: "asset_provider";
            attributes: {
                /** @description Administrator (AGF) name as CMF registers it */
                name: string;
            };
        };
        /** @description Every administrator, FM and FI/ETF, ordered by name */
        AssetProviderAllList: {
            data: components["schemas"]["AssetProviderAll"][];
            meta: {
                /**
                 * @description The batch that answered (<batch date>-<16 hex digits of its content hash>); the same as the Batch-Id response header
                 * @example 2026-11-20-0123456789abcdef
                 */
                batch_id: string;
                /**
                 * @description When the batch was complete: the first instant after its batch date in America/Santiago (deterministic per batch)
                 * @example 2026-11-21T03:00:00Z
                 */
                generated_at: string;
                /**
                 * @description When the next batch is expected: the first instant after the next weekday after the batch date, America/Santiago (a holiday can delay it)
                 * @example 2026-11-21T03:00:00Z
                 */
                expires_at: string;
            };
        };
        /** @description An administrator; rut, displayName, slug, instrument_count and fund_count only when it has FI or ETF instruments */
        AssetProviderAll: {
            /** @description Decimal provider_id (CRC32), as a string */
            id: string;
            /** @enum {string} */
            type: "asset_provider";
            attributes: {
                /** @description Name as CMF registers it (the FM registry's when the administrator has FM funds) */
                name: string;
                /** @description What the administrator manages in this batch, in the order FM, ETF, FI */
                coverage: ("FM" | "ETF" | "FI")[];
                /** @description RUT with check digit; null when only the FI lists name the administrator (they carry no RUT) */
                rut?: string | null;
                /** @description Short name: the legal suffixes dropped, title case */
                displayName?: string;
                /** @description displayName in lower case ASCII, words joined by '-' */
                slug?: string;
                /** @description FI and ETF instruments of the administrator in the batch, any CMF status */
                instrument_count?: number;
                /** @description Current mutual funds (FM) of the administrator */
                fund_count?: number;
            };
        };
        KeyInfo: {
            name: string;
            tier: components["schemas"]["Tier"];
            /** @description null = no daily limit */
            daily_quota: number | null;
            quota_enforced: boolean;
            created_at: string;
            requests_today: number;
        };
        /** @enum {string} */
        Tier: "free" | "institutional" | "internal";
        NotReady: {
            /**
             * @description Take it out of rotation: nothing published, the accounts store or the ledger unreadable, draining, or not on the fleet's batch
             * @enum {string}
             */
            status: "not_ready";
            /** @description Why it cannot serve now, one cause each (empty when ready) */
            reasons: string[];
            /** @description The X-Request-Id of the answer */
            request_id?: string;
        };
        Ready: {
            /**
             * @description It can answer keyed data requests on the fleet's current batch now
             * @enum {string}
             */
            status: "ready";
            /** @description Why it cannot serve now, one cause each (empty when ready) */
            reasons: string[];
        };
        Liveness: {
            /**
             * @description The process answers: its event loop turns
             * @enum {string}
             */
            status: "alive";
        };
        /** @description The Health body, with HTTP 503: keyed data requests cannot be answered now */
        HealthNotReady: {
            /** @enum {string} */
            status: "ok" | "degraded" | "unavailable";
            /** @description Batch date of the published snapshot */
            last_scraped_date: string | null;
            /** @description The batch served now (<batch date>-<16 hex digits of its content hash>), as data answers name it (Batch-Id, meta.batch_id); null when nothing is served */
            batch_id: string | null;
            /** @description Rows in the published snapshot's tables */
            total_records: number;
            /** @description Why the status is not ok, one cause each (empty when ok) */
            reasons: string[];
            /** @description Each data set's freshness from the last pipeline run's report (empty before a run reports it) */
            sources: components["schemas"]["SourceHealth"][];
            /** @description The X-Request-Id of the answer */
            request_id?: string;
        };
        SourceHealth: {
            /** @description The data set (e.g. cartola_diaria, fm_bpr_daily, fm_tac, indicators) */
            data_set: string;
            /**
             * @description fresh: recent enough for its cadence (daily: at most two weekdays old; monthly: the month-end two months back or later; quarterly: six; irregular: present); late: older; waiting: not fetched unattended (no captcha command, no API credentials) and no fresh drop; missing: no input
             * @enum {string}
             */
            state: "fresh" | "late" | "waiting" | "missing";
            /** @enum {string} */
            cadence: "daily" | "monthly" | "quarterly" | "irregular";
            /** @description The latest date its values are of (a monthly file: its month's last day) */
            latest_value_date: string | null;
            /** @description When its newest input was first recorded (ISO instant) */
            last_received_at: string | null;
            /** @description Its newest input was fetched from the CMF (or an API), or dropped into the inbox */
            how: ("fetched" | "dropped") | null;
            /** @description Why it is not fetched unattended, when it is not */
            waiting: string | null;
        };
        Health: {
            /** @enum {string} */
            status: "ok" | "degraded" | "unavailable";
            /** @description Batch date of the published snapshot */
            last_scraped_date: string | null;
            /** @description The batch served now (<batch date>-<16 hex digits of its content hash>), as data answers name it (Batch-Id, meta.batch_id); null when nothing is served */
            batch_id: string | null;
            /** @description Rows in the published snapshot's tables */
            total_records: number;
            /** @description Why the status is not ok, one cause each (empty when ok) */
            reasons: string[];
            /** @description Each data set's freshness from the last pipeline run's report (empty before a run reports it) */
            sources: components["schemas"]["SourceHealth"][];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description The key's daily quota (absent for keys without a daily limit) */
        "X-RateLimit-Limit": number;
        /** @description Requests left today after this one (absent for keys without a daily limit) */
        "X-RateLimit-Remaining": number;
        /** @description Unix time (seconds) of the next midnight in America/Santiago, when the quota resets */
        "X-RateLimit-Reset": number;
        /** @description Strong validator of the answer: the content hash of the batch that answered, path and query (a suffix per content coding); for /api/batches, a hash of the answer */
        ETag: string;
        /** @description `private, max-age=<seconds until the next expected batch>` (data routes); `private, max-age=31536000, immutable` when the request names its batch (`?batch=`); `private, no-cache` for /api/batches */
        "Cache-Control": string;
        /** @description X-Api-Key, Authorization, Accept-Encoding */
        Vary: string;
        /** @description The batch this answer was read from (<batch date>-<16 hex digits of its content hash>): the one `?batch=` names, else the batch served now; the same as the body's `meta.batch_id` where it has a meta. /api/changes: its to_batch; downloads: the path's batch */
        "Batch-Id": string;
        /** @description RFC 8288 links of a paged list, the same as the body's `links`: `<url>; rel="next"`, `<url>; rel="prev"`, `<url>; rel="self"` (those that exist). Root-relative URLs carrying every query parameter of the request and the batch the page was read from */
        Link: string;
        /** @description The request's id: the incoming X-Request-Id when sane (1–128 of [A-Za-z0-9._:-]), else a UUID */
        "X-Request-Id": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    "public.health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Health */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description HealthNotReady | ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                    "application/json": components["schemas"]["HealthNotReady"];
                };
            };
        };
    };
    "public.livez": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Liveness */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Liveness"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
        };
    };
    "public.readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ready"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description NotReady */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotReady"];
                };
            };
        };
    };
    "key.keyInfo": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description KeyInfo */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Cache-Control": "no-store";
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KeyInfo"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "catalog.providers": {
        parameters: {
            query?: {
                /** @description all: FI/ETF administrators too, with coverage and counts (503 when the batch has no FI data) */
                scope?: "all";
                /** @description Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. Expected: a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them). Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422. */
                batch?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every administrator, FM and FI/ETF, ordered by name | AssetProviderList */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssetProviderAllList"] | components["schemas"]["AssetProviderList"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "catalog.conceptualAssets": {
        parameters: {
            query?: {
                /** @description Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. Expected: a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them). Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422. */
                batch?: string;
            };
            header?: never;
            path: {
                provider_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The administrator's current funds: no CMF registry end date on or before the batch date, and an active series (see RealAsset end_date) or none yet */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConceptualAssetList"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "catalog.realAssets": {
        parameters: {
            query?: {
                /** @description Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. Expected: a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them). Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422. */
                batch?: string;
            };
            header?: never;
            path: {
                concept_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description RealAssetList */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RealAssetList"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "catalog.days": {
        parameters: {
            query?: {
                /** @description First date, inclusive (YYYY-MM-DD) */
                from_date?: string;
                /** @description Last date, inclusive (YYYY-MM-DD); not before from_date */
                to_date?: string;
                /** @description csv: the same values as CSV (a header line, ISO dates, `.` decimals); `Accept: text/csv` asks for it too */
                format?: "json" | "csv";
                /** @description Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. Expected: a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them). Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422. */
                batch?: string;
            };
            header?: never;
            path: {
                asset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Daily quota values (FM) or CMF book values (FI/ETF ids), ascending by date, never truncated | date,price (FI/ETF: date,price,currency,price_source,price_basis), one line per date, ascending */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RealAssetDays"];
                    "text/csv": string;
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "returns.returns": {
        parameters: {
            query?: {
                /** @description Cutoff YYYY-MM-DD, not after the batch date; without it the latest batch */
                as_of_date?: string;
                /** @description accounting (default): the quota's currency; clp: each date's observed USD rate; real_uf: CLP deflated by the UF */
                valuation?: "accounting" | "clp" | "real_uf";
                /** @description price (default); total: distributions and adjustments applied in windows with verified coverage */
                return_basis?: "price" | "total";
                /** @description Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. Expected: a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them). Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422. */
                batch?: string;
            };
            header?: never;
            path: {
                asset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Price returns in the accounting currency (valuation=accounting, return_basis=price) | Price returns converted to CLP or deflated by the UF (valuation=clp or real_uf) | Total returns: distributions reinvested and adjustments applied, in windows with verified coverage */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FundReturnResponse"] | components["schemas"]["AdjustedReturnResponse"] | components["schemas"]["TotalReturnResponse"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "returns.riskMetrics": {
        parameters: {
            query?: {
                /** @description Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. Expected: a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them). Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422. */
                batch?: string;
            };
            header?: never;
            path: {
                asset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The latest risk snapshot of a series (decimal fractions) */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RiskMetricsResponse"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "returns.expenseRatio": {
        parameters: {
            query?: {
                /** @description Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. Expected: a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them). Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422. */
                batch?: string;
            };
            header?: never;
            path: {
                asset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The TAC (annual cost ratio) of a series */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExpenseRatioResponse"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "returns.expenseRatioHistory": {
        parameters: {
            query?: {
                /** @description First month end to include, YYYYMMDD */
                from_date?: string;
                /** @description Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. Expected: a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them). Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422. */
                batch?: string;
            };
            header?: never;
            path: {
                asset_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Monthly TAC of a series, ascending; an empty list when none is documented */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExpenseRatioHistory"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "market.allFunds": {
        parameters: {
            query?: {
                /** @description Fund category (CMF fund type as a word), case-insensitive */
                category?: "money_market_90d" | "debt_365d" | "debt_medium_long" | "balanced" | "equity" | "free_investment" | "structured" | "qualified_investors";
                /** @description AFM RAR family: display name or slug, case-insensitive */
                fund_family?: "Deuda < 90 días nacional" | "deuda-menor-90-dias-nacional" | "Deuda < 90 días internacional usd" | "deuda-menor-90-dias-internacional-usd" | "Deuda < 365 días nacional pesos" | "deuda-menor-365-dias-nacional-pesos" | "Deuda < 365 días nacional uf" | "deuda-menor-365-dias-nacional-uf" | "Deuda < 365 días internacional" | "deuda-menor-365-dias-internacional" | "Deuda > 365 días nacional pesos" | "deuda-mayor-365-dias-nacional-pesos" | "Deuda > 365 días nacional uf hasta 3 años" | "deuda-mayor-365-dias-nacional-uf-hasta-3-anos" | "Deuda > 365 días nacional uf 3 a 5 años" | "deuda-mayor-365-dias-nacional-uf-3-a-5-anos" | "Deuda > 365 días nacional uf más de 5 años" | "deuda-mayor-365-dias-nacional-uf-mas-de-5-anos" | "Deuda > 365 días internacional emergente" | "deuda-mayor-365-dias-internacional-emergente" | "Deuda > 365 días internacional desarrollado" | "deuda-mayor-365-dias-internacional-desarrollado" | "Deuda > 365 días origen flexible" | "deuda-mayor-365-dias-origen-flexible" | "Balanceado conservador" | "balanceado-conservador" | "Balanceado moderado" | "balanceado-moderado" | "Balanceado agresivo" | "balanceado-agresivo" | "Accionario nacional" | "accionario-nacional" | "Accionario eeuu" | "accionario-eeuu" | "Accionario europa" | "accionario-europa" | "Accionario desarrollado" | "accionario-desarrollado" | "Accionario latam" | "accionario-latam" | "Accionario asia emergente" | "accionario-asia-emergente" | "Accionario emergente" | "accionario-emergente" | "Estructurado" | "estructurado" | "Inversionistas calificados deuda" | "inversionistas-calificados-deuda";
                /** @description Cutoff date YYYY-MM-DD (latest when absent): values at the last quote date on or before it */
                date?: string;
                /** @description What the fund's internal regulation declares about article 107 of the income tax law */
                article107_regulation_status?: "declares_eligible" | "declares_not_eligible" | "unknown";
                /** @description mutual_fund (default), etf, investment_fund or all */
                vehicle?: "mutual_fund" | "etf" | "investment_fund" | "all";
                /** @description current (default): today's funds (a historical date is a backtest over them: survivorship bias); as_of: the funds and series alive on `date` (required), including those ended since, with their values as of that date */
                universe?: "current" | "as_of";
                /** @description Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. Expected: a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them). Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422. */
                batch?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every active instrument of the vehicle with its price, daily and monthly change and TAC */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AllFundsResponse"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description BadRequest */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "market.marketSummary": {
        parameters: {
            query?: {
                /** @description YYYY-MM-DD (latest when absent). A historical date is a backtest over today's funds (survivorship bias) unless universe=as_of */
                date?: string;
                /** @description current (default): today's funds (a historical date is a backtest over them: survivorship bias); as_of: the funds and series alive on `date` (required), including those ended since, with their values as of that date */
                universe?: "current" | "as_of";
                /** @description Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. Expected: a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them). Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422. */
                batch?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description MarketSummaryResponse */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MarketSummaryResponse"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description BadRequest */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "market.familyIndex": {
        parameters: {
            query?: {
                /** @description Index currency: PESOS or DOLAR (CLP, USD accepted), case-insensitive; default: the family's currency with the largest patrimony */
                currency?: "PESOS" | "CLP" | "DOLAR" | "USD";
                /** @description First date, inclusive (YYYY-MM-DD) */
                from_date?: string;
                /** @description Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. Expected: a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them). Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422. */
                batch?: string;
            };
            header?: never;
            path: {
                family_rar: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description FamilyIndexResponse */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FamilyIndexResponse"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "market.benchmarks": {
        parameters: {
            query?: {
                /** @description Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. Expected: a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them). Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422. */
                batch?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Active benchmarks: RAR family → symbol, index, currency */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BenchmarkCatalog"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "market.benchmarkPrices": {
        parameters: {
            query?: {
                /** @description First date, inclusive (YYYY-MM-DD) */
                from_date?: string;
                /** @description Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. Expected: a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them). Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422. */
                batch?: string;
            };
            header?: never;
            path: {
                family_rar: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Raw closes in the native currency; returns and conversion are left to the client */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BenchmarkPrices"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "market.agfRanking": {
        parameters: {
            query?: {
                /** @description patrimony (default) or shareholders */
                metric?: "patrimony" | "shareholders";
                /** @description YYYY-MM-DD (latest when absent) */
                date?: string;
                /** @description Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. Expected: a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them). Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422. */
                batch?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description AgfRankingResponse */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgfRankingResponse"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "market.agfEvolution": {
        parameters: {
            query: {
                /** @description Administrator names as the ranking shows them (case-insensitive); repeat the parameter */
                administrator: [
                    string
                ];
                /** @description patrimony (default) or shareholders */
                metric?: "patrimony" | "shareholders";
                /** @description A month, YYYY-MM */
                from_month?: string;
                /** @description A month, YYYY-MM */
                to_month?: string;
                /** @description Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. Expected: a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them). Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422. */
                batch?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description AgfEvolutionResponse */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgfEvolutionResponse"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "market.tacChanges": {
        parameters: {
            query?: {
                /** @description Any date of a closed month (default: the last month with TAC) */
                date?: string;
                /** @description up (default): largest rises; down: largest drops */
                direction?: "up" | "down";
                /** @description 1 to 100 (default 15) */
                limit?: number;
                /** @description Fund category (CMF fund type as a word), case-insensitive */
                category?: "money_market_90d" | "debt_365d" | "debt_medium_long" | "balanced" | "equity" | "free_investment" | "structured" | "qualified_investors";
                /** @description Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. Expected: a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them). Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422. */
                batch?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description TacChangesResponse */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TacChangesResponse"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "market.flows": {
        parameters: {
            query: {
                /** @description series (id: asset_id), fund (id: concept_id), administrator (id: provider_id) or family (id: AFM RAR family name or slug) */
                level: "series" | "fund" | "administrator" | "family";
                /** @description The entity of the level: asset_id, concept_id, provider_id, or an AFM RAR family name or slug */
                id: string;
                /** @description day (default) or month (calendar months) */
                period?: "day" | "month";
                /** @description First date or month, inclusive: YYYY-MM-DD with period=day, YYYY-MM with period=month */
                from?: string;
                /** @description Last date or month (default: the batch date), inclusive: YYYY-MM-DD with period=day, YYYY-MM with period=month */
                to?: string;
                /** @description native (default): amounts in the series' accounting currency, one row per date and currency; CLP: one row per date, USD × the observed dollar of each day, EUR left out (counted in unconverted_days) */
                currency?: "native" | "CLP";
                /** @description Rows per page, 1 to 5000 (default 1000) */
                limit?: number;
                /** @description Rows skipped, oldest first (default 0) */
                offset?: number;
                /** @description Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. Expected: a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them). Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422. */
                batch?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description FlowsResponse */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlowsResponse"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description BadRequest */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "market.carteraResumen": {
        parameters: {
            query?: {
                /** @description YYYY-MM (default: the latest month with positions) */
                month?: string;
                /** @description Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. Expected: a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them). Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422. */
                batch?: string;
            };
            header?: never;
            path: {
                run: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Portfolio grouped by instrument type, national plus foreign */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResumenResponse"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description BadRequest */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "market.carteraHoldings": {
        parameters: {
            query?: {
                /** @description YYYY-MM (default: the latest month with positions) */
                month?: string;
                /** @description N national, E foreign, all (default) */
                market?: "N" | "E" | "all";
                /** @description Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. Expected: a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them). Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422. */
                batch?: string;
            };
            header?: never;
            path: {
                run: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Portfolio positions, largest weight first */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HoldingsResponse"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description BadRequest */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "market.article107": {
        parameters: {
            query?: {
                /** @description Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. Expected: a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them). Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422. */
                batch?: string;
            };
            header?: never;
            path: {
                run: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Article107DetailResponse */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Article107DetailResponse"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "market.compare": {
        parameters: {
            query: {
                /** @description 1 to 10 decimal series ids, comma separated, unique as unsigned 32-bit integers (leading zeros do not distinguish); order kept */
                series: string;
                /** @description Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. Expected: a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them). Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422. */
                batch?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description CompareResponse */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CompareResponse"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "market.screener": {
        parameters: {
            query?: {
                /** @description Substring of the fund name or RUN, case-insensitive (max 200) */
                q?: string;
                /** @description Catalog fundFamily: an AFM RAR family by display name or slug, case-insensitive; unknown → 422 */
                fund_family?: "Deuda < 90 días nacional" | "deuda-menor-90-dias-nacional" | "Deuda < 90 días internacional usd" | "deuda-menor-90-dias-internacional-usd" | "Deuda < 365 días nacional pesos" | "deuda-menor-365-dias-nacional-pesos" | "Deuda < 365 días nacional uf" | "deuda-menor-365-dias-nacional-uf" | "Deuda < 365 días internacional" | "deuda-menor-365-dias-internacional" | "Deuda > 365 días nacional pesos" | "deuda-mayor-365-dias-nacional-pesos" | "Deuda > 365 días nacional uf hasta 3 años" | "deuda-mayor-365-dias-nacional-uf-hasta-3-anos" | "Deuda > 365 días nacional uf 3 a 5 años" | "deuda-mayor-365-dias-nacional-uf-3-a-5-anos" | "Deuda > 365 días nacional uf más de 5 años" | "deuda-mayor-365-dias-nacional-uf-mas-de-5-anos" | "Deuda > 365 días internacional emergente" | "deuda-mayor-365-dias-internacional-emergente" | "Deuda > 365 días internacional desarrollado" | "deuda-mayor-365-dias-internacional-desarrollado" | "Deuda > 365 días origen flexible" | "deuda-mayor-365-dias-origen-flexible" | "Balanceado conservador" | "balanceado-conservador" | "Balanceado moderado" | "balanceado-moderado" | "Balanceado agresivo" | "balanceado-agresivo" | "Accionario nacional" | "accionario-nacional" | "Accionario eeuu" | "accionario-eeuu" | "Accionario europa" | "accionario-europa" | "Accionario desarrollado" | "accionario-desarrollado" | "Accionario latam" | "accionario-latam" | "Accionario asia emergente" | "accionario-asia-emergente" | "Accionario emergente" | "accionario-emergente" | "Estructurado" | "estructurado" | "Inversionistas calificados deuda" | "inversionistas-calificados-deuda";
                /** @description Investor class: APV, Institutional or Retail, case-insensitive; other → 422 */
                investor_class?: "APV" | "Institutional" | "Retail";
                /** @description PESOS/CLP or DOLAR/USD, case-insensitive; required to sort by a return */
                currency?: "PESOS" | "CLP" | "DOLAR" | "USD";
                /** @description Catalog category word (as on /api/all-funds), case-insensitive; unknown → 422 */
                category?: "money_market_90d" | "debt_365d" | "debt_medium_long" | "balanced" | "equity" | "free_investment" | "structured" | "qualified_investors";
                /** @description Substring of the administrator name, case-insensitive (max 200) */
                administrator?: string;
                /** @description Inclusive minimum spheres, integer 1 to 5; excludes unavailable values; not above the maximum */
                cmf_spheres_min?: number;
                /** @description Inclusive maximum spheres, integer 1 to 5; excludes unavailable values */
                cmf_spheres_max?: number;
                /** @description Exact non-empty official CMF sphere family; required to sort by cmf_spheres */
                cmf_family?: string;
                /** @description Exact non-empty official CMF investor type; required to sort by cmf_spheres */
                cmf_investor_type?: string;
                /** @description id (default), tac, cmf_spheres, 1m, 3m, 6m, 1y, ytd, 3y_ann, 5y_ann, last_closed_month (a return needs currency) */
                sort?: "id" | "tac" | "cmf_spheres" | "1m" | "3m" | "6m" | "1y" | "ytd" | "3y_ann" | "5y_ann" | "last_closed_month";
                /** @description asc (default) or desc; unavailable values last either way, ties by ascending id */
                order?: "asc" | "desc";
                /** @description 1 to 200, default 50 */
                limit?: number;
                /** @description Rows skipped after filtering and sorting, integer ≥ 0, default 0 */
                offset?: number;
                /** @description YYYY-MM-DD, not after the batch (latest when absent): values, returns, risk and TAC as of that date, computed from the quotas; over today's funds (survivorship bias) unless universe=as_of */
                date?: string;
                /** @description current (default): today's funds (a historical date is a backtest over them: survivorship bias); as_of: the funds and series alive on `date` (required), including those ended since, with their values as of that date */
                universe?: "current" | "as_of";
                /** @description Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. Expected: a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them). Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422. */
                batch?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description ScreenerResponse */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScreenerResponse"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description BadRequest */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "fi.instruments": {
        parameters: {
            query?: {
                /** @description Administrator id (CRC32) */
                provider_id?: number;
                /** @description true: ETFs only; false: investment funds only */
                is_etf?: boolean;
                /** @description FIRES (rescatable) or FINRE (no rescatable) */
                regulatory_type?: "FIRES" | "FINRE";
                /** @description CMF status; default active */
                status?: "active" | "inactive" | "unknown" | "all";
                /** @description Substring of the name, ticker or RUN; case and accents ignored */
                q?: string;
                /** @description Rows per page, 1–500, default 100 */
                limit?: number;
                /** @description Rows skipped, default 0 */
                offset?: number;
                /** @description Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. Expected: a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them). Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422. */
                batch?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Investment funds and ETFs, ordered by name, then RUN */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FiInstrumentList"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "fi.instrument": {
        parameters: {
            query?: {
                /** @description Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. Expected: a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them). Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422. */
                batch?: string;
            };
            header?: never;
            path: {
                instrument_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description FiInstrumentDetail */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FiInstrumentDetail"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "fi.prices": {
        parameters: {
            query?: {
                /** @description First date, inclusive (YYYY-MM-DD) */
                from_date?: string;
                /** @description Last date, inclusive (YYYY-MM-DD); not before from_date */
                to_date?: string;
                /** @description Rows per page, 1–5000, default 1000 */
                limit?: number;
                /** @description Rows skipped, default 0 */
                offset?: number;
                /** @description Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. Expected: a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them). Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422. */
                batch?: string;
            };
            header?: never;
            path: {
                instrument_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Book values of every series of the instrument, ascending by date (then by series label) */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FiPriceList"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "fi.holdings": {
        parameters: {
            query?: {
                /** @description YYYY-MM (default: the latest period with positions); malformed → 400 */
                month?: string;
                /** @description N national, E foreign, all (default) */
                market?: "N" | "E" | "all";
                /** @description Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. Expected: a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them). Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422. */
                batch?: string;
            };
            header?: never;
            path: {
                instrument_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Positions ordered by weight in the fund's assets (largest first; without a weight last), then market and row */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FiHoldingList"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description BadRequest */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "fi.resumen": {
        parameters: {
            query?: {
                /** @description YYYY-MM (default: the latest period with positions); malformed → 400 */
                month?: string;
                /** @description N national, E foreign, all (default) */
                market?: "N" | "E" | "all";
                /** @description Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. Expected: a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them). Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422. */
                batch?: string;
            };
            header?: never;
            path: {
                instrument_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Positions grouped by instrument type, largest weight first, then type */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FiPortfolioSummary"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description BadRequest */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BadRequestError"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "holders.holders": {
        parameters: {
            query?: {
                /** @description Nemotécnico or instrument code as CMF reports it (matched trimmed and in upper case) */
                instrument?: string;
                /** @description ISIN (12 characters) or CUSIP (9) */
                isin?: string;
                /** @description The issuer's RUT, with or without dots and check digit (a given check digit must be right) */
                issuer_rut?: string;
                /** @description YYYY-MM (default: the latest FM portfolio month) */
                month?: string;
                /** @description Answer from this published batch, exactly as it answered while it was current (`meta.batch_id` names it; strong ETag, `Cache-Control: private, max-age=31536000, immutable`). Default: the current batch. Expected: a batch id: <batch date>-<16 hex digits of its content hash>, e.g. 2026-11-20-0123456789abcdef (GET /api/batches lists them). Unknown: 404; published but its file no longer retained: 410 batch_not_retained; malformed: 422. */
                batch?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description HoldersResponse */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HoldersResponse"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "batches.batches": {
        parameters: {
            query?: {
                /** @description Batches per page, 1–500, default 100 */
                limit?: number;
                /** @description Batches skipped, default 0 */
                offset?: number;
                /** @description The list as it stood when this batch was first published: it and the batches published before it, newest first (the links of every page name the first page's newest batch, so paging never shifts when a batch is published). Unknown: 404 */
                batch?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every published batch, newest first (by first publication); with `batch`, the list as it stood when that batch was first published (it and the batches before it): its links name the first page's newest batch, so paging never shifts by a publish */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchList"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "batches.batch": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                batch_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A published batch with its manifest and its Parquet files */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchDetail"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "changes.changes": {
        parameters: {
            query: {
                /** @description The older batch: the one your copy reflects (<batch date>-<16 hex digits of its content hash>, meta.batch_id) */
                from_batch: string;
                /** @description The newer batch; default: the cursor's, else the current batch. Not older than from_batch (same date: either way) */
                to_batch?: string;
                /** @description Items per page, 1–5000, default 1000 */
                limit?: number;
                /** @description Where the page starts: meta.next_cursor of the previous page (opaque); absent for the first page */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Changes from from_batch to to_batch, in a fixed order (registry, series, TAC, daily values; by id within each). New dates and months after from_batch's are not changes: read them from /days and /expense_ratio/history */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChangeList"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "account.magicLink": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MagicLinkRequest"];
            };
        };
        responses: {
            /** @description Sent when the address may receive it (the answer does not say whether it has an account) */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MagicLinkSent"];
                };
            };
            /** @description UntrustedOrigin */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ForbiddenError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "account.googleLogin": {
        parameters: {
            query: {
                /** @description Where to come back to; on the public origin */
                return_url: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description <No Content> */
            302: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description UntrustedOrigin */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ForbiddenError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "account.googleCallback": {
        parameters: {
            query: {
                code: string;
                state: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description <No Content> */
            303: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description UntrustedOrigin */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ForbiddenError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "account.loginCallback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginCallbackRequest"];
            };
        };
        responses: {
            /** @description The signed-in user */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            /** @description UntrustedOrigin */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ForbiddenError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "account.logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description <No Content> */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description UntrustedOrigin */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ForbiddenError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "account.me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The signed-in user */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            /** @description NotSignedIn */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotSignedInError"];
                };
            };
            /** @description UntrustedOrigin */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ForbiddenError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "account.deleteMe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description <No Content> */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description NotSignedIn */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotSignedInError"];
                };
            };
            /** @description UntrustedOrigin */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ForbiddenError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "account.watchlist": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description WatchlistResponse */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WatchlistResponse"];
                };
            };
            /** @description NotSignedIn */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotSignedInError"];
                };
            };
            /** @description UntrustedOrigin */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ForbiddenError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "account.watch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WatchlistRequest"];
            };
        };
        responses: {
            /** @description WatchlistResponse */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WatchlistResponse"];
                };
            };
            /** @description NotSignedIn */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotSignedInError"];
                };
            };
            /** @description UntrustedOrigin */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ForbiddenError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "account.unwatch": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                serie_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description <No Content> */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description NotSignedIn */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotSignedInError"];
                };
            };
            /** @description UntrustedOrigin */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ForbiddenError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "account.alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AlertPreferenceRequest"];
            };
        };
        responses: {
            /** @description AlertPreferences */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertPreferences"];
                };
            };
            /** @description NotSignedIn */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotSignedInError"];
                };
            };
            /** @description UntrustedOrigin */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ForbiddenError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "account.unsubscribe": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UnsubscribeRequest"];
            };
        };
        responses: {
            /** @description AlertPreferences */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AlertPreferences"];
                };
            };
            /** @description UntrustedOrigin */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ForbiddenError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "account.oneClickUnsubscribe": {
        parameters: {
            query: {
                token: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description <No Content> */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description UntrustedOrigin */
            403: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ForbiddenError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "downloads.batchSnapshot": {
        parameters: {
            query?: never;
            header?: {
                /** @description One byte range, `bytes=<first>-[<last>]` or `bytes=-<suffix length>`; several ranges, or another unit, get the whole file */
                Range?: string;
                /** @description The ETag (or Last-Modified date) of the file the first part came from: the range is sent only while the file is that one, else the whole file */
                "If-Range"?: string;
            };
            path: {
                batch_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description Bytes in this answer (the whole file on 200, the range on 206) */
                    "Content-Length"?: number;
                    /** @description SHA-256 of the whole file (RFC 9530), e.g. `sha-256=:<base64>:`, on 200 and 206 alike */
                    "Repr-Digest"?: string;
                    /** @description `bytes`: a cut download resumes with `Range: bytes=<bytes received>-` */
                    "Accept-Ranges"?: string;
                    ETag: components["headers"]["ETag"];
                    /** @description When the file was written */
                    "Last-Modified"?: string;
                    /** @description attachment; filename="<batch_id>.sqlite" */
                    "Content-Disposition"?: string;
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.sqlite3": string;
                };
            };
            /** @description Partial Content: the one range asked for; a range that starts past byte 0 of a download the key started today is not counted against its quota */
            206: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description Bytes in this answer (the whole file on 200, the range on 206) */
                    "Content-Length"?: number;
                    /** @description SHA-256 of the whole file (RFC 9530), e.g. `sha-256=:<base64>:`, on 200 and 206 alike */
                    "Repr-Digest"?: string;
                    /** @description `bytes`: a cut download resumes with `Range: bytes=<bytes received>-` */
                    "Accept-Ranges"?: string;
                    /** @description Strong validator of the file: its SHA-256 in hex, quoted; send it back in If-Range when resuming */
                    ETag?: string;
                    /** @description When the file was written */
                    "Last-Modified"?: string;
                    /** @description attachment; filename="<batch_id>.sqlite" */
                    "Content-Disposition"?: string;
                    /** @description bytes <first>-<last>/<file size> */
                    "Content-Range"?: string;
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.sqlite3": string;
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description RangeNotSatisfiable */
            416: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Content-Range": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["RangeNotSatisfiableError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "downloads.batchParquet": {
        parameters: {
            query?: never;
            header?: {
                /** @description One byte range, `bytes=<first>-[<last>]` or `bytes=-<suffix length>`; several ranges, or another unit, get the whole file */
                Range?: string;
                /** @description The ETag (or Last-Modified date) of the file the first part came from: the range is sent only while the file is that one, else the whole file */
                "If-Range"?: string;
            };
            path: {
                batch_id: string;
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description Bytes in this answer (the whole file on 200, the range on 206) */
                    "Content-Length"?: number;
                    /** @description SHA-256 of the whole file (RFC 9530), e.g. `sha-256=:<base64>:`, on 200 and 206 alike */
                    "Repr-Digest"?: string;
                    /** @description `bytes`: a reader fetches the footer, then the row groups and columns it needs */
                    "Accept-Ranges"?: string;
                    ETag: components["headers"]["ETag"];
                    /** @description When the file was written */
                    "Last-Modified"?: string;
                    /** @description attachment; filename="<batch_id>-<file>" */
                    "Content-Disposition"?: string;
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.apache.parquet": string;
                };
            };
            /** @description Partial Content: the one range asked for; a range past byte 0 of a file the key started today is not counted (8 of them per start) */
            206: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description Bytes in this answer (the whole file on 200, the range on 206) */
                    "Content-Length"?: number;
                    /** @description SHA-256 of the whole file (RFC 9530), e.g. `sha-256=:<base64>:`, on 200 and 206 alike */
                    "Repr-Digest"?: string;
                    /** @description `bytes`: a reader fetches the footer, then the row groups and columns it needs */
                    "Accept-Ranges"?: string;
                    /** @description Strong validator of the file: its SHA-256 in hex, quoted */
                    ETag?: string;
                    /** @description When the file was written */
                    "Last-Modified"?: string;
                    /** @description attachment; filename="<batch_id>-<file>" */
                    "Content-Disposition"?: string;
                    /** @description bytes <first>-<last>/<file size> */
                    "Content-Range"?: string;
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.apache.parquet": string;
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description RangeNotSatisfiable */
            416: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Content-Range": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["RangeNotSatisfiableError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "downloads.batchDaysCsv": {
        parameters: {
            query?: {
                /** @description Only the values dated on or after this date (YYYY-MM-DD); without it, every date */
                from_date?: string;
            };
            header?: never;
            path: {
                batch_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Success */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    ETag: components["headers"]["ETag"];
                    /** @description attachment; filename="<batch_id>-days.csv.gz" (`<batch_id>-days-from-<from_date>.csv.gz` with from_date) */
                    "Content-Disposition"?: string;
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/gzip": string;
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "downloads.batchSeriesCsv": {
        parameters: {
            query?: never;
            header?: {
                /** @description One byte range, `bytes=<first>-[<last>]` or `bytes=-<suffix length>`; several ranges, or another unit, get the whole file */
                Range?: string;
                /** @description The ETag of the file the first part came from: the range is sent only while the file is that one, else the whole file */
                "If-Range"?: string;
            };
            path: {
                batch_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description CSV: id,vehicle,run,fund,series,administrator,currency,first_date,last_date; one line per series of the batch, in the order of days.csv.gz */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description Bytes in this answer (the whole file on 200, the range on 206) */
                    "Content-Length"?: number;
                    /** @description SHA-256 of the whole file (RFC 9530), e.g. `sha-256=:<base64>:`, on 200 and 206 alike */
                    "Repr-Digest"?: string;
                    /** @description `bytes` */
                    "Accept-Ranges"?: string;
                    ETag: components["headers"]["ETag"];
                    /** @description attachment; filename="<batch_id>-series.csv" */
                    "Content-Disposition"?: string;
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description Partial Content: the one range asked for (each request counts against the quota) */
            206: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description Bytes in this answer (the whole file on 200, the range on 206) */
                    "Content-Length"?: number;
                    /** @description SHA-256 of the whole file (RFC 9530), e.g. `sha-256=:<base64>:`, on 200 and 206 alike */
                    "Repr-Digest"?: string;
                    /** @description `bytes` */
                    "Accept-Ranges"?: string;
                    /** @description Strong validator of the file: its SHA-256 in hex, quoted; send it back in If-Range when resuming */
                    ETag?: string;
                    /** @description attachment; filename="<batch_id>-series.csv" */
                    "Content-Disposition"?: string;
                    /** @description bytes <first>-<last>/<file size> */
                    "Content-Range"?: string;
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description BatchNotRetained */
            410: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["BatchNotRetainedError"];
                };
            };
            /** @description RangeNotSatisfiable */
            416: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Content-Range": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["RangeNotSatisfiableError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "releases.batchRelease": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                batch_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A batch's release manifest, signed with Ed25519 (its detached signature: /api/batches/{batch_id}/release.sig over these exact bytes; the key: /.well-known/fds-release-key.pem). Each release names the previous one's SHA-256: a chain back to the first */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description attachment; filename="<batch_id>.release.json" */
                    "Content-Disposition"?: string;
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReleaseManifest"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "releases.batchReleaseSignature": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                batch_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The raw 64-byte Ed25519 signature of the release manifest's bytes (RFC 8032) */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description attachment; filename="<batch_id>.release.sig" */
                    "Content-Disposition"?: string;
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "releases.batchManifestFile": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                batch_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description BatchManifest */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    /** @description attachment; filename="<batch_id>.manifest.json" */
                    "Content-Disposition"?: string;
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    Vary: components["headers"]["Vary"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchManifest"];
                };
            };
            /** @description Not Modified: the request's If-None-Match header names this answer's ETag (counts against the quota; quota headers present) */
            304: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["Cache-Control"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Batch-Id": components["headers"]["Batch-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "releaseKey.releaseKey": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The Ed25519 public key, PEM (-----BEGIN PUBLIC KEY-----, SubjectPublicKeyInfo) */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/x-pem-file": string;
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "webhooks.webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description WebhookList */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookList"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "webhooks.createWebhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookCreateRequest"];
            };
        };
        responses: {
            /** @description WebhookCreated */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookCreated"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "webhooks.deleteWebhook": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description <No Content> */
            204: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "webhooks.webhookDeliveries": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint's latest 100 deliveries, newest first */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
    "webhooks.testWebhook": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description WebhookDelivery */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description Unauthorized */
            401: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "WWW-Authenticate": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["UnauthorizedError"];
                };
            };
            /** @description NotFound */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["NotFoundError"];
                };
            };
            /** @description InvalidParameter */
            422: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ValidationError"];
                };
            };
            /** @description QuotaExceeded | RateLimited */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Limit"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Remaining"?: string;
                    /** @description On the quota 429 only (absent on the per-IP 429) */
                    "X-RateLimit-Reset"?: string;
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["QuotaExceededError"] | components["schemas"]["RateLimitedError"];
                };
            };
            /** @description ServiceUnavailable */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Retry-After": string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["ServiceUnavailableError"];
                };
            };
        };
    };
}
