//! Application services against real databases (SQLite and PostgreSQL) and the recorded ATS
//! responses served by the replay server.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod accounts;
mod assistant;
mod assistant_tools;
mod board_catalogue;
mod boards;
mod experience_tools;
mod facets_eval;
mod lifecycle;
mod llmkey;
mod notify;
mod notify_match;
mod pipeline;
mod plans;
mod rederive;
mod reindex;
mod scope;
mod search;
mod search_sync;
mod support;
mod tracking;
mod turns;

/// One `#[tokio::test]` per backend for each `crate::<module>::<test>(&dyn Store)`.
macro_rules! on_both_backends {
    ($($module:ident: [$($test:ident),* $(,)?]),* $(,)?) => {
        mod sqlite { $( mod $module { $(
            #[tokio::test]
            async fn $test() {
                let db = freehire_store::testing::TestDb::sqlite().await;
                crate::$module::$test(db.store()).await;
                db.teardown().await;
            }
        )* } )* }
        mod postgres { $( mod $module { $(
            #[tokio::test]
            async fn $test() {
                let db = freehire_store::testing::TestDb::postgres().await;
                crate::$module::$test(db.store()).await;
                db.teardown().await;
            }
        )* } )* }
    };
}

on_both_backends! {
    pipeline: [
        first_crawl_fills_the_catalogue_and_activates_the_board,
        second_crawl_closes_what_the_board_no_longer_lists,
        descriptions_are_sanitised_only_for_postings_written,
        a_failed_crawl_closes_nothing_and_backs_off,
        cooling_boards_are_skipped,
        the_sweep_closes_long_unseen_jobs_of_listed_boards,
        hydrating_boards_touch_what_they_do_not_refetch,
        run_once_refuses_a_held_provider,
        a_partial_listing_is_written_and_closes_nothing,
    ],
    lifecycle: [
        a_week_of_failures_closes_a_boards_postings_and_recovery_reopens_them,
        two_expired_reads_close_an_unwatched_posting,
        moderation_closes_once_and_prune_archives_long_closed_jobs,
    ],
    rederive: [
        stale_facets_are_rederived_and_structured_values_kept,
    ],
    search_sync: [
        ingested_jobs_become_searchable_and_closed_ones_leave,
        a_role_cluster_is_one_hit_found_in_every_city,
        the_companies_index_follows_the_drain,
    ],
    reindex: [
        rebuilds_from_the_store_and_purges_the_outbox,
    ],
    boards: [
        add_from_url_recognises_and_folds_duplicates,
        import_reports_bad_lines_and_keeps_good_ones,
        import_and_add_refuse_the_same_hostile_boards,
    ],
    board_catalogue: [
        the_bundled_catalogue_seeds_once,
        refused_rows_are_counted_and_listed_never_fatal,
    ],
}

/// One `#[tokio::test]` per backend for each `crate::<module>::<test>(&TestDb)` (tests that
/// seed rows or open a second pool).
macro_rules! on_both_backends_db {
    ($($module:ident: [$($test:ident),* $(,)?]),* $(,)?) => {
        mod sqlite_db { $( mod $module { $(
            #[tokio::test]
            async fn $test() {
                let db = freehire_store::testing::TestDb::sqlite().await;
                crate::$module::$test(&db).await;
                db.teardown().await;
            }
        )* } )* }
        mod postgres_db { $( mod $module { $(
            #[tokio::test]
            async fn $test() {
                let db = freehire_store::testing::TestDb::postgres().await;
                crate::$module::$test(&db).await;
                db.teardown().await;
            }
        )* } )* }
    };
}

on_both_backends_db! {
    pipeline: [a_board_whose_write_fails_fails_alone_in_its_group],
    experience_tools: [
        said_quotes_earn_standing_only_when_they_back_the_claim,
        confirmation_upgrades_an_inferred_atom_in_place,
        updates_keep_or_drop_standing_by_what_changes,
        bank_reads_are_bounded,
        require_context_gates_interactive_adds,
    ],
    assistant_tools: [
        discovery_tools_answer_from_the_catalogue_and_the_index,
        market_fit_measures_coverage_gaps_and_top_skills,
        present_jobs_returns_a_receipt_and_names_what_is_wrong,
        tracking_tools_save_apply_stage_and_list,
        my_jobs_defaults_to_ten_and_caps_at_twenty,
        another_users_tracking_is_not_found,
        interview_context_carries_the_vacancy_and_the_stage,
        registries_follow_the_preset_matrix,
        session_prompts_name_only_registered_tools,
        a_full_page_of_long_descriptions_fits_the_result_cap,
        screening_answers_set_records_a_partial_update,
    ],
    llmkey: [
        a_first_call_mints_a_key_from_the_template,
        two_racing_resolvers_keep_one_key_and_delete_the_other,
        a_minted_key_is_deleted_when_the_account_is_gone,
        forget_clears_only_a_matching_secret_and_blocks,
        a_bound_model_uses_the_users_key_with_spend_tags_and_falls_back_once,
        the_model_is_configured_from_llm_variables,
    ],
    plans: [
        a_chat_turn_counts_once_and_a_retry_costs_nothing,
        a_spent_enforced_allowance_refuses_with_the_allowance,
        a_released_charge_is_refunded,
        a_tailor_turn_uses_its_ceiling_and_no_assistant_allowance,
        usage_reports_every_feature_and_a_failing_store_fails_open,
    ],
    notify: [
        a_digest_email_lists_ten_jobs_and_links_its_page,
        a_digest_claims_at_most_200_and_the_rest_wait,
        a_digest_is_recorded_before_sending_and_a_failure_is_kept,
        a_failed_delivery_backs_off_then_fails_for_good,
        a_webhook_digest_is_signed_and_received,
        a_private_webhook_target_is_refused_at_send_time,
        a_webhook_answering_an_error_is_retried,
        a_due_reminder_fires_once_unless_it_no_longer_applies,
        a_silent_application_is_nudged_once_per_episode,
        a_move_into_interview_is_nudged_once,
        two_workers_send_every_digest_exactly_once,
    ],
    notify_match: [
        an_unfiltered_subscription_is_never_matched,
        percolated_matches_equal_each_saved_search_on_the_engine,
    ],
    turns: [
        one_turn_runs_across_processes_the_second_waits_and_the_third_is_refused,
        a_cancel_sent_to_another_process_stops_the_turn_and_its_waiter,
        a_cancel_in_the_same_process_stops_its_turn_at_once,
        an_expired_lease_of_a_killed_holder_is_taken_over,
        a_turn_whose_lease_was_taken_over_is_stopped,
        a_turn_whose_lease_cannot_be_renewed_for_a_ttl_is_stopped,
        the_variant_follows_the_backend,
    ],
}
