import { describe, expect, expectTypeOf, test } from 'vitest';
import {
  type CreatedProject,
  CreatedProjectSchema,
  type ProductMode,
  type Project,
  ProjectSchema,
  type ProjectStatus,
} from '../../src/resources/projects.js';
import { createdProjectFixture, projectFixture } from '../fixtures/records.js';

describe('ProjectSchema', () => {
  test('parses a realistic project with wire (camelCase) names', () => {
    expect(ProjectSchema.parse(projectFixture)).toStrictEqual(projectFixture);
  });

  test('keeps unknown fields', () => {
    const parsed = ProjectSchema.parse({ ...projectFixture, region: 'eu', seats: 3 });
    expect(parsed.region).toBe('eu');
    expect(parsed['seats']).toBe(3);
  });

  test('accepts an unknown status and product mode', () => {
    const parsed = ProjectSchema.parse({
      ...projectFixture,
      status: 'paused',
      productMode: 'hybrid',
    });
    expect(parsed.status).toBe('paused');
    expect(parsed.productMode).toBe('hybrid');
  });

  test.each([
    ['status', 3],
    ['id', null],
    ['createdAt', 1718000000],
    ['websiteUrl', undefined],
  ])('rejects a wrong type for %s', (field, value) => {
    expect(ProjectSchema.safeParse({ ...projectFixture, [field]: value }).success).toBe(false);
  });

  test('types', () => {
    expectTypeOf<'past_due'>().toExtend<ProjectStatus>();
    expectTypeOf<string>().toExtend<ProjectStatus>();
    expectTypeOf<'software'>().toExtend<ProductMode>();
    expectTypeOf<Project['websiteUrl']>().toEqualTypeOf<string>();
    expectTypeOf<Project['status']>().toEqualTypeOf<ProjectStatus>();
    expectTypeOf<number>().not.toExtend<ProjectStatus>();
  });
});

describe('CreatedProjectSchema', () => {
  test('parses a created project', () => {
    expect(CreatedProjectSchema.parse(createdProjectFixture)).toStrictEqual(createdProjectFixture);
  });

  test('needs only the plan: other fields are not shown', () => {
    const parsed = CreatedProjectSchema.parse({
      plan: { active: true, manageUrl: 'https://app.example/billing', tier: 'pro' },
      slug: 'acme',
    });
    expect(parsed.plan.active).toBe(true);
    expect(parsed.plan['tier']).toBe('pro');
    expect(parsed['slug']).toBe('acme');
    expect(parsed.id).toBeUndefined();
  });

  test('still type-checks the project fields that are present', () => {
    expect(CreatedProjectSchema.safeParse({ ...createdProjectFixture, id: 42 }).success).toBe(false);
  });

  test('rejects a missing or malformed plan', () => {
    const { plan: _plan, ...withoutPlan } = createdProjectFixture;
    expect(CreatedProjectSchema.safeParse(withoutPlan).success).toBe(false);
    expect(
      CreatedProjectSchema.safeParse({
        ...createdProjectFixture,
        plan: { active: 'yes', manageUrl: 'x' },
      }).success,
    ).toBe(false);
  });

  test('types', () => {
    expectTypeOf<CreatedProject['plan']['active']>().toEqualTypeOf<boolean>();
    expectTypeOf<CreatedProject['id']>().toEqualTypeOf<string | undefined>();
  });
});
