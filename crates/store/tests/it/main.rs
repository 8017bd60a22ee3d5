//! The store conformance suite: every behaviour runs against SQLite and PostgreSQL over real
//! connections. Each test gets its own database (SQLite file / PostgreSQL schema).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod accounts;
mod assistant;
mod boards;
mod clusters;
mod companies;
mod cvs;
mod experience;
mod fixtures;
mod health;
mod ingest;
mod jobs;
mod letters;
mod lifecycle;
mod notify;
mod outages;
mod outbox;
mod plans;
mod rates;
mod saved_searches;
mod schedule;
mod screening;
mod stats;
mod tracking;
mod writer_lease;

/// Generates one `#[tokio::test]` per backend for each suite function
/// `crate::<module>::<test>(&dyn Store)`.
macro_rules! conformance {
    ($($module:ident: [$($test:ident),* $(,)?]),* $(,)?) => {
        mod sqlite {
            $( mod $module { $(
                #[tokio::test]
                async fn $test() {
                    let db = freehire_store::testing::TestDb::sqlite().await;
                    crate::$module::$test(db.store()).await;
                    db.teardown().await;
                }
            )* } )*
        }
        mod postgres {
            $( mod $module { $(
                #[tokio::test]
                async fn $test() {
                    let db = freehire_store::testing::TestDb::postgres().await;
                    crate::$module::$test(db.store()).await;
                    db.teardown().await;
                }
            )* } )*
        }
    };
}

conformance! {
    jobs: [
        upsert_reports_inserted_unchanged_changed,
        upsert_never_blanks_a_description,
        change_keeps_slug_and_created_at,
        refresh_unchanged_bumps_only_last_seen,
        refresh_reopens_a_closed_job,
        close_is_soft_and_resight_reopens,
        list_is_open_non_duplicate_newest_first,
        list_pages_and_counts,
        slug_lookup_includes_closed_jobs,
        invalid_posting_rejects_whole_batch,
        repeated_key_in_batch_writes_last,
        every_field_round_trips,
        thousands_per_transaction,
        nul_bytes_are_dropped,
        duplicate_of_cannot_point_at_itself,
        rederive_rewrites_facets_and_requeues_listed_jobs,
    ],
    companies: [
        companies_are_the_open_catalogue_by_job_count,
        company_search_matches_slug_fragments,
        a_company_aggregates_its_open_jobs,
        company_jobs_are_open_newest_first,
        the_companies_table_follows_every_job_write,
        every_company_write_is_marked_for_the_search_index,
        company_filters_are_or_within_and_across_facets,
        merging_a_company_moves_its_jobs_and_folds_later_writes,
    ],
    boards: [
        add_folds_identity_case_insensitively,
        retired_and_rejected_do_not_block_a_new_board,
        list_filters_by_provider_and_status,
        activate_flips_only_pending,
        status_changes_keep_reason_for_rejected,
        a_bulk_add_skips_live_identities_in_one_batch,
        a_bulk_add_of_thousands_is_one_call,
    ],
    health: [
        failures_count_and_cool_down_on_schedule,
        success_heals_and_stamps_yield,
        health_is_keyed_by_board_identity,
        long_errors_are_cut_on_a_char_boundary,
        cooldowns_are_read_per_provider,
        failing_boards_are_listed_worst_first_and_counted_by_class,
    ],
    outbox: [
        writes_enqueue_in_the_same_transaction,
        claims_lease_and_retry,
        a_change_during_a_claim_is_not_lost,
        rows_queued_before_a_rebuild_are_purged,
        a_renewed_lease_holds_and_an_expired_one_is_claimable,
    ],
    ingest: [
        seen_set_is_board_scoped_and_retries_hydration,
        touch_bumps_and_reopens_without_a_hash,
        close_unseen_respects_scope_and_cutoff,
        a_board_write_lands_whole_or_not_at_all,
        a_group_of_board_writes_lands_board_by_board,
        a_group_at_one_instant_lands_as_its_boards_would_alone,
        a_board_write_stores_the_callers_source_hashes,
        touch_keeps_input_order_across_open_closed_and_missing,
    ],
    clusters: [
        reposts_point_at_the_oldest_open_role,
        closing_the_canonical_hands_the_role_on,
        a_reopened_older_job_takes_its_role_back,
    ],
    schedule: [
        due_providers_are_claimed_once_per_cadence,
        overrides_disable_and_stretch,
        dead_claims_expire_and_interrupted_runs_return,
        heartbeats_keep_a_claim_and_a_dead_one_is_due_at_once,
        take_over_claims_a_held_provider_and_names_the_holder,
        the_fleet_cap_holds_and_slow_providers_wait_three_hours,
    ],
    writer_lease: [one_holder_at_a_time_and_an_expired_lease_changes_hands],
    accounts: [
        users_are_created_read_and_listed_oldest_first,
        an_email_is_taken_in_its_lower_cased_form,
        concurrent_creates_of_one_email_leave_one_account,
        a_password_change_keeps_or_revokes_sessions,
        profile_patches_set_clear_and_keep,
        role_and_verification_are_set,
        a_right_code_is_redeemed_once,
        wrong_codes_count_down_to_spent,
        an_expired_code_is_refused_and_deleted,
        an_exhausted_code_is_refused_and_deleted,
        a_new_code_replaces_the_old_and_resets_attempts,
        codes_are_per_purpose_and_per_owner,
        concurrent_redeems_of_one_code_take_turns,
        a_reset_code_sets_the_password_verifies_and_revokes_at_once,
        api_keys_are_listed_newest_first_and_deleted_by_their_owner,
        a_token_hash_names_its_key_and_owner,
        touch_writes_at_most_once_per_interval,
        deleting_a_user_removes_their_codes_and_keys,
    ],
    rates: [
        a_burst_is_counted_and_the_next_refused,
        concurrent_takes_never_pass_the_quota,
        time_refills_and_the_sweep_drops_only_full_cells,
    ],
    stats: [
        the_fleet_counts_boards_by_health_and_open_jobs,
        a_daily_rollup_counts_the_day_and_is_rewritten,
    ],
    letters: [
        a_letter_is_kept_once_per_vacancy_and_replaced_in_place,
    ],
    screening: [
        a_patch_sets_what_it_names_and_null_forgets,
        concurrent_patches_of_different_fields_both_land,
        an_unknown_owner_has_no_answers,
    ],
    experience: [
        employments_are_created_listed_found_replaced_and_deleted,
        the_import_fills_only_the_blanks,
        a_claim_is_banked_once_per_key,
        a_quote_raises_an_inferred_claim_and_nothing_lowers_a_confirmed_one,
        updates_keep_or_write_provenance_and_keys_stay_unique,
        a_merge_enriches_the_keeper_unless_a_row_moved,
        another_users_ids_reach_nothing,
        the_flag_round_trips_and_the_bank_goes_with_its_user,
        concurrent_writes_of_one_claim_bank_one_atom,
    ],
    saved_searches: [
        saved_searches_are_created_listed_patched_and_deleted,
        a_name_is_unique_per_owner_case_insensitively,
        concurrent_inserts_of_one_name_leave_one_search,
        the_cap_holds_under_concurrent_inserts,
        sharing_gives_a_stable_public_slug_until_unshared,
        subscriptions_belong_to_their_search_and_go_with_it,
        another_owner_reaches_nothing,
        settings_default_until_written_and_round_trip,
    ],
}

/// The notification history's reads, on both backends (they need rows the port does not
/// write, so they take the test database itself).
mod history {
    #[tokio::test]
    async fn sqlite() {
        let db = freehire_store::testing::TestDb::sqlite().await;
        crate::saved_searches::the_history_reads_newest_first_with_its_counts_and_marks_read(&db)
            .await;
        db.teardown().await;
    }

    #[tokio::test]
    async fn postgres() {
        let db = freehire_store::testing::TestDb::postgres().await;
        crate::saved_searches::the_history_reads_newest_first_with_its_counts_and_marks_read(&db)
            .await;
        db.teardown().await;
    }
}

/// Generates one `#[tokio::test]` per backend for each suite function
/// `crate::<module>::<test>(&TestDb)`, for behaviours that also read or change the database
/// beside the ports (counters, reminder rows, a pruned job).
macro_rules! conformance_db {
    ($($module:ident: [$($test:ident),* $(,)?]),* $(,)?) => {
        mod sqlite_db {
            $( mod $module { $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $test() {
                    let db = freehire_store::testing::TestDb::sqlite().await;
                    crate::$module::$test(&db).await;
                    db.teardown().await;
                }
            )* } )*
        }
        mod postgres_db {
            $( mod $module { $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $test() {
                    let db = freehire_store::testing::TestDb::postgres().await;
                    crate::$module::$test(&db).await;
                    db.teardown().await;
                }
            )* } )*
        }
    };
}

conformance_db! {
    lifecycle: [
        liveness_reads_postings_no_live_board_watches,
        pruning_archives_long_closed_jobs_and_applications_keep_their_role,
        role_history_counts_a_roles_postings_ever_and_open,
        ghost_reports_are_live_until_retracted_and_inputs_name_applicants,
    ],
    cvs: [
        the_base_cv_is_created_once,
        a_tailored_copy_is_made_once_and_needs_a_base,
        a_tailored_copy_names_its_session_and_merges_its_report,
        the_candidate_commits_and_a_no_op_files_nothing,
        the_agent_is_refused_without_a_trace_and_cited_claims_are_accepted,
        quick_sets_on_one_path_coalesce,
        the_feed_is_trimmed_at_100,
        undo_restores_and_an_undone_revision_cannot_be_undone,
        revert_batch_restores_the_state_before_the_batch,
        another_users_cv_is_not_found_on_every_method,
        the_model_reads_no_contacts,
        concurrent_commits_lose_nothing,
    ],
    assistant: [
        nullable_columns_map_and_the_binding_reaches_the_insert,
        another_users_session_is_not_found,
        deleting_an_owned_session_cascades_and_a_missing_one_is_not_found,
        appended_messages_read_back_in_order,
        recent_returns_the_tail_in_ascending_order,
        label_and_touch_are_owner_scoped_and_the_first_label_stays,
        label_and_touch_in_one_write_keep_both_rules,
        the_transcript_returns_the_stored_bytes,
        the_rail_lists_chats_newest_first_without_tailor_and_browse,
        the_database_refuses_an_unknown_preset,
        a_jobs_deletion_unbinds_and_a_users_deletion_removes_everything,
        concurrent_appends_from_two_stores_get_distinct_seqs,
        one_running_lease_and_one_queue_place_across_stores,
        an_expired_lease_or_queue_place_is_taken_over,
        a_process_renews_and_reads_all_its_leases_at_once,
        the_lease_clock_reads_the_time,
    ],
    plans: [
        a_charge_counts_once_per_reference_and_refuses_at_the_limit,
        shadow_mode_counts_over_the_limit,
        the_tier_comes_from_the_account_columns,
        a_release_voids_the_charge_once_and_never_goes_below_zero,
        usage_lists_every_reported_feature_and_refs_match_by_prefix,
        concurrent_charges_never_pass_an_enforced_allowance,
        a_key_is_claimed_once_and_cleared_only_by_its_secret,
    ],
    tracking: [
        the_assistant_records_its_source_lists_dismissed_and_reads_slugs,
        marks_are_set_cleared_and_read_as_slug_sets,
        applying_snapshots_the_posting_and_counts_once_per_user,
        reapplying_on_another_day_redates_the_applied_event,
        concurrent_applies_count_each_user_once,
        stage_and_notes_changes_are_ledgered_and_counted,
        a_save_schedules_a_reminder_that_unsave_dismiss_and_apply_cancel,
        an_application_survives_its_jobs_deletion,
        owner_scoped_methods_never_reach_another_users_rows,
        the_list_filters_pages_and_orders_by_last_change,
        export_lists_every_application_with_its_events,
        importing_twice_creates_nothing_new,
    ],
    notify: [
        the_cursor_moves_by_compare_and_set_with_its_matches,
        a_digest_takes_at_most_the_cap_and_is_recorded_with_its_delivery,
        deliveries_are_leased_retried_and_finished,
        reminders_fire_once_and_say_whether_they_still_apply,
        a_nudge_is_recorded_once_per_episode,
        concurrent_digest_claims_take_each_digest_once,
        the_insert_horizon_waits_for_job_writes_in_flight,
    ],
}

/// Transcript collisions only PostgreSQL can stage (a writer holding an uncommitted row, a
/// trigger raising SQLSTATE 23505); SQLite's one writer never collides.
mod postgres_collisions {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_real_sequence_collision_is_retried() {
        let db = freehire_store::testing::TestDb::postgres().await;
        crate::assistant::a_real_sequence_collision_is_retried(&db).await;
        db.teardown().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_persistent_collision_gives_up_after_three_attempts() {
        let db = freehire_store::testing::TestDb::postgres().await;
        crate::assistant::a_persistent_collision_gives_up_after_three_attempts(&db).await;
        db.teardown().await;
    }
}

/// With no `DATABASE_URL` the binaries open the default URL: a SQLite file under `./data`,
/// created with its folder, in WAL mode (here under a temporary directory, not the cwd).
// scenario: Embedded default
#[tokio::test]
async fn the_default_is_a_sqlite_file_created_with_its_folder_in_wal_mode() {
    use freehire_store::{DEFAULT_DATABASE_URL, DatabaseUrl, SqliteLocation, SqliteStore, Store};
    let default = DatabaseUrl::parse(DEFAULT_DATABASE_URL).unwrap();
    let relative = default.sqlite_file().unwrap();
    assert_eq!(relative, std::path::Path::new("./data/freehire.db"));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(relative);
    assert!(!path.parent().unwrap().exists());
    let store = SqliteStore::connect(&SqliteLocation::File(path.clone())).await.unwrap();
    let mode: String =
        sqlx::query_scalar("PRAGMA journal_mode").fetch_one(store.pool()).await.unwrap();
    assert_eq!(mode, "wal");
    assert!(path.is_file(), "the file and its folder are created");
    store.close().await;
}

/// Two processes starting together on a fresh SQLite file (the API and the worker) both
/// migrate: they take turns instead of racing to create the tables.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_migrations_from_two_stores_take_turns() {
    use freehire_store::{SqliteLocation, SqliteStore, Store};
    let dir = tempfile::tempdir().unwrap();
    let location = SqliteLocation::File(dir.path().join("freehire.db"));
    let a = SqliteStore::connect(&location).await.unwrap();
    let b = SqliteStore::connect(&location).await.unwrap();
    let (ra, rb) = tokio::join!(a.migrate(), b.migrate());
    ra.unwrap();
    rb.unwrap();
    a.ping().await.unwrap();
}
