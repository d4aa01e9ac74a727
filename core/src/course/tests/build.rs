//! The build task: the course's two build lessons read, their goals judge with the build
//! tasks' pinned bounds, the seed's handlers assembled from their palettes hold and the
//! typical wrong assemblies are refuted (the task passes only on a proof), a goal that is not
//! well formed is refused naming its field, and the learner's moves of blocks are typed.

use super::{course, lesson, parse_edited, task_at};
use crate::check::judge::{Judgement, build_check_config_for, judge_scenario};
use crate::course::{
    Assembly, AssemblyError, BuildGoal, BuildVerdict, CourseStep, Goal, NotYet, TaskVerdict,
};
use crate::invariants::InvariantId;
use crate::program::{
    Block, HandlerKind, InboxConflict, ProgramError, builtin_consumer, builtin_mark_paid, compile,
};
use crate::sim::{PatternMode, Simulation};
use crate::words::Language;

/// The build task of lesson `id`: its step and goal.
fn build_task(id: &str) -> (usize, &'static BuildGoal) {
    let lesson = lesson(id);
    lesson
        .steps
        .iter()
        .enumerate()
        .find_map(|(index, step)| match step {
            CourseStep::Task(task) => match &task.goal {
                Goal::Build(goal) => Some((index, goal)),
                _ => None,
            },
            _ => None,
        })
        .unwrap_or_else(|| panic!("{id} has no build task"))
}

/// `blocks` assembled from `goal`'s palette with the learner's moves: each block added from
/// the first unplaced palette entry that can take its form, then set to that form.
fn assemble(goal: &BuildGoal, blocks: &[Block]) -> Assembly {
    let mut assembly = Assembly::default();
    for (position, block) in blocks.iter().enumerate() {
        let (entry, form) = goal
            .unplaced(&assembly)
            .into_iter()
            .find_map(|entry| {
                goal.forms(entry).iter().position(|form| form == block).map(|form| (entry, form))
            })
            .unwrap_or_else(|| panic!("the palette offers no {block:?}"));
        assembly = assembly.add(goal, entry).unwrap();
        assembly = assembly.set_form(goal, position, form).unwrap();
    }
    assert_eq!(goal.program(&assembly).blocks, blocks);
    assembly
}

/// The judge's verdict on `assembly`, as the page and the CLI run it, in one line.
fn judged(id: &str, assembly: &Assembly) -> (BuildVerdict, String) {
    let lesson = lesson(id);
    let (_, goal) = build_task(id);
    let (scenario, config) = lesson.build_input(goal, assembly).unwrap();
    let judgement = judge_scenario(scenario, 0, config).unwrap();
    let line = match &judgement {
        Judgement::Holds { states, .. } => format!("holds: {states} states"),
        Judgement::Counterexample { counterexample, .. } => format!(
            "{} in {} steps",
            judgement.broken_invariant().unwrap(),
            counterexample.path.len()
        ),
        Judgement::Bounded { states, .. } => format!("bounded at {states} states"),
    };
    (goal.grade(&judgement), line)
}

#[test]
fn each_build_lesson_comes_after_the_lessons_that_teach_its_patterns() {
    let ids: Vec<&str> = course().lessons.iter().map(|lesson| lesson.id.as_str()).collect();
    let at = |id: &str| ids.iter().position(|found| *found == id).unwrap();
    assert!(at("build-consumer") > at("reservation-ledger") && at("build-consumer") > at("inbox"));
    assert!(at("build-mark-paid") > at("mark-paid"));
    assert_eq!(build_task("build-consumer").1.handler, HandlerKind::ReserveStockConsumer);
    assert_eq!(build_task("build-mark-paid").1.handler, HandlerKind::MarkPaid);
}

#[test]
fn the_build_goals_judge_with_the_build_tasks_pinned_bounds() {
    for id in ["build-consumer", "build-mark-paid"] {
        let (_, goal) = build_task(id);
        assert_eq!(goal.check_config(), build_check_config_for(goal.handler), "{id}");
        // Distractors: the palette offers more than a right answer needs.
        let answer = match goal.handler {
            HandlerKind::ReserveStockConsumer => builtin_consumer(
                crate::inbox::ConsumerImplementation::Idempotent,
                crate::stock::StockImplementation::Idempotent,
            ),
            HandlerKind::MarkPaid => {
                builtin_mark_paid(crate::order::OrderImplementation::Idempotent)
            }
        };
        assert!(goal.palette.len() >= answer.blocks.len() + 3, "{id}: too few distractors");
    }
}

#[test]
fn the_seeds_consumer_assembled_from_the_palette_holds_and_passes() {
    let (_, goal) = build_task("build-consumer");
    let seed = builtin_consumer(
        crate::inbox::ConsumerImplementation::Idempotent,
        crate::stock::StockImplementation::Idempotent,
    );
    let (verdict, line) = judged("build-consumer", &assemble(goal, &seed.blocks));
    assert_eq!(line, "holds: 39084 states");
    assert!(verdict.passes());
}

/// `examples/programs/consumer-ack-before-commit.json`: the seed with `ON CONFLICT DO
/// NOTHING`, its COMMIT last, after the ACK.
const ACK_BEFORE_COMMIT: &str =
    include_str!("../../../../examples/programs/consumer-ack-before-commit.json");

#[test]
fn ack_before_commit_assembled_from_the_palette_is_refuted_and_fixed_by_one_move_up() {
    let (_, goal) = build_task("build-consumer");
    let blocks = crate::program::HandlerProgram::from_json(ACK_BEFORE_COMMIT).unwrap().blocks;
    assert_eq!(blocks.last(), Some(&Block::Commit));
    let wrong = assemble(goal, &blocks);
    let (verdict, line) = judged("build-consumer", &wrong);
    assert_eq!(line, "I6 in 29 steps");
    assert_eq!(verdict, BuildVerdict::Refuted { invariant: InvariantId::I6, steps: 29 });
    assert!(!verdict.passes());
    let last = blocks.len() - 1;
    // The COMMIT above the ACK, under the label a repeat skips to.
    let fixed = wrong.shift(last, true).unwrap();
    let (verdict, line) = judged("build-consumer", &fixed);
    assert_eq!(line, "holds: 41426 states");
    assert!(verdict.passes());
}

#[test]
fn the_seeds_mark_paid_assembled_from_the_palette_holds_and_the_unguarded_update_is_refuted() {
    let (_, goal) = build_task("build-mark-paid");
    let seed = builtin_mark_paid(crate::order::OrderImplementation::Idempotent);
    let assembly = assemble(goal, &seed.blocks);
    let (verdict, line) = judged("build-mark-paid", &assembly);
    assert_eq!(line, "holds: 2433 states");
    assert!(verdict.passes());
    // The UPDATE's picker set to its naive twin's `WHERE id = $id`.
    let update = assembly
        .placed
        .iter()
        .position(|placed| matches!(placed.block, Block::UpdateOrderPaid { .. }))
        .unwrap();
    let unguarded = assembly.set_form(goal, update, 1).unwrap();
    let (verdict, line) = judged("build-mark-paid", &unguarded);
    assert_eq!(line, "I3 in 37 steps");
    assert!(!verdict.passes());
}

#[test]
fn a_bounded_judgement_does_not_pass() {
    let (_, goal) = build_task("build-consumer");
    let bounded = BuildGoal { states_max: 100, ..goal.clone() };
    let seed = builtin_consumer(
        crate::inbox::ConsumerImplementation::Idempotent,
        crate::stock::StockImplementation::Idempotent,
    );
    let assembly = assemble(&bounded, &seed.blocks);
    let (scenario, config) = lesson("build-consumer").build_input(&bounded, &assembly).unwrap();
    let judgement = judge_scenario(scenario, 0, config).unwrap();
    assert!(matches!(judgement, Judgement::Bounded { .. }), "{judgement:?}");
    assert!(!bounded.grade(&judgement).passes());
}

#[test]
fn a_build_task_is_not_done_by_any_run() {
    let lesson = lesson("build-consumer");
    let (index, _) = build_task("build-consumer");
    for mode in [PatternMode::Naive, PatternMode::Idempotent] {
        let mut simulation =
            Simulation::new(lesson.scenario().unwrap().with_mode(mode), 0).unwrap();
        simulation.run_to_end();
        let verdict = task_at(lesson, index).check(lesson, &simulation.trace()).unwrap();
        assert_eq!(verdict, TaskVerdict::NotYet(NotYet::NotJudged));
    }
    assert!(NotYet::NotJudged.text(Language::En).contains("Check my handler"));
}

#[test]
fn a_build_goal_that_is_not_well_formed_is_refused_naming_its_field() {
    let index = course().position("build-consumer").unwrap();
    let (step, _) = build_task("build-consumer");
    let message = |edit: &dyn Fn(&mut serde_json::Value)| {
        parse_edited(|value| {
            edit(&mut value["lessons"][index]["steps"][step]["task"]["goal"]["build"])
        })
        .to_string()
    };
    let field = format!("lessons[{index}].steps[{step}].task.goal.build");
    assert_eq!(
        message(&|goal| goal["palette"][3] = serde_json::json!({"block": "insert_charge"})),
        format!(
            "{field}.palette[3]: palette[3] is insert_charge, which is not a block of the reserve_stock_consumer handler"
        )
    );
    assert_eq!(
        message(&|goal| goal["palette"] = serde_json::json!([])),
        format!("{field}.palette: palette has 0 blocks; it must have between 1 and 64")
    );
    assert_eq!(
        message(&|goal| goal["invariants"] = serde_json::json!(["I2", "I2"])),
        format!("{field}.invariants: invariants must name at least one invariant, each once")
    );
    assert_eq!(
        message(&|goal| goal["faults"][1]["count"] = 0.into()),
        format!("{field}.faults[1]: faults[1] (F2) must be a class not named before, count 1 to 2")
    );
    assert_eq!(
        message(&|goal| goal["states_max"] = 1_000_000.into()),
        format!("{field}.states_max: states_max is 1000000; it must be between 1 and 200000")
    );
    assert!(
        message(&|goal| goal["colour"] = "red".into()).contains(&field),
        "an unknown field names the goal"
    );
    assert!(
        message(&|goal| goal["palette"][0] = serde_json::json!({"block": "jump"}))
            .contains(&format!("{field}.palette[0]")),
        "an unknown block names its entry"
    );
    assert!(
        message(&|goal| goal["handler"] = "refund".into()).contains(&format!("{field}.handler"))
    );
}

#[test]
fn the_learners_moves_are_typed_and_each_entry_is_placed_once() {
    let (_, goal) = build_task("build-consumer");
    let empty = Assembly::default();
    assert_eq!(goal.unplaced(&empty).len(), goal.palette.len());
    let one = empty.add(goal, 2).unwrap();
    assert_eq!(one.add(goal, 2), Err(AssemblyError::AlreadyPlaced { entry: 2 }));
    assert_eq!(one.add(goal, 99), Err(AssemblyError::NoSuchEntry { entry: 99 }));
    assert!(!goal.unplaced(&one).contains(&2));
    let two = one.add(goal, 0).unwrap();
    assert_eq!(two.shift(0, true), Err(AssemblyError::AtTheEdge { position: 0 }));
    assert_eq!(two.shift(1, false), Err(AssemblyError::AtTheEdge { position: 1 }));
    assert_eq!(two.shift(5, false), Err(AssemblyError::NoSuchPosition { position: 5 }));
    let swapped = two.shift(1, true).unwrap();
    assert_eq!(swapped.placed[0].entry, 0);
    assert_eq!(swapped.remove(0).unwrap().placed, one.placed);
    assert_eq!(two.remove(2), Err(AssemblyError::NoSuchPosition { position: 2 }));
    // A parameter: the inbox INSERT's conflict clause, its palette form first.
    assert_eq!(
        goal.forms(2),
        [
            Block::InsertInbox { on_conflict: InboxConflict::DoNothing },
            Block::InsertInbox { on_conflict: InboxConflict::Error },
        ]
    );
    let changed = one.set_form(goal, 0, 1).unwrap();
    assert_eq!(changed.placed[0].block, Block::InsertInbox { on_conflict: InboxConflict::Error });
    assert_eq!(one.set_form(goal, 0, 2), Err(AssemblyError::NoSuchForm { position: 0 }));
    // A skip's picker offers every label of the palette; a block without one, itself.
    let skip = goal.palette.iter().position(|block| block.skip_label().is_some()).unwrap();
    assert_eq!(goal.forms(skip).len(), 2);
    assert_eq!(goal.forms(0), [Block::Begin]);
}

#[test]
fn a_refused_program_is_worded_in_both_languages_with_its_block_counted_from_one() {
    let (_, goal) = build_task("build-consumer");
    let commit = goal.palette.iter().position(|block| *block == Block::Commit).unwrap();
    let ack = goal.palette.iter().position(|block| *block == Block::Ack).unwrap();
    let assembly = Assembly::default().add(goal, commit).unwrap().add(goal, ack).unwrap();
    let error = compile(&goal.program(&assembly)).unwrap_err();
    assert!(matches!(error, ProgramError::EndWithoutBegin { index: 0, .. }), "{error:?}");
    assert_eq!(error.text_in(Language::En), "Block 1: COMMIT without BEGIN.");
    assert!(error.text_in(Language::Ru).chars().any(crate::words::is_cyrillic));
    assert_eq!(
        Block::InsertInbox { on_conflict: InboxConflict::DoNothing }.text_in(Language::En),
        "INSERT INTO inbox (message_id, consumer) ON CONFLICT DO NOTHING"
    );
    assert_eq!(
        Block::IfNoRowsSkipTo { label: "ack".to_owned() }.text_in(Language::En),
        "if 0 rows, skip to ack"
    );
}

#[test]
fn a_program_file_is_graded_held_to_the_palette_and_passed_only_on_a_proof() {
    let consumer = lesson("build-consumer");
    let grade = |program: &crate::program::HandlerProgram| {
        let grades = consumer.grade_programs(std::slice::from_ref(program)).unwrap();
        assert_eq!(grades.len(), 1);
        grades[0].verdict.clone()
    };
    let seed = builtin_consumer(
        crate::inbox::ConsumerImplementation::Idempotent,
        crate::stock::StockImplementation::Idempotent,
    );
    assert_eq!(grade(&seed), TaskVerdict::Passed);
    let wrong = crate::program::HandlerProgram::from_json(ACK_BEFORE_COMMIT).unwrap();
    assert_eq!(
        grade(&wrong),
        TaskVerdict::NotYet(NotYet::Refuted { invariant: InvariantId::I6, steps: 29 })
    );
    // A second BEGIN: the palette offers one.
    let mut twice = seed.clone();
    twice.blocks.insert(1, Block::Begin);
    assert_eq!(grade(&twice), TaskVerdict::NotYet(NotYet::NotOnThePalette { index: Some(1) }));
    let mark_paid = builtin_mark_paid(crate::order::OrderImplementation::Idempotent);
    assert_eq!(grade(&mark_paid), TaskVerdict::NotYet(NotYet::NotOnThePalette { index: None }));
    assert!(
        NotYet::Refuted { invariant: InvariantId::I6, steps: 29 }
            .text(Language::Ru)
            .chars()
            .any(crate::words::is_cyrillic)
    );
}
