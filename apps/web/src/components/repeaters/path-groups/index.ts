export { PathGroupsRepeater, type PathGroupsRepeaterInput } from './PathGroupsRepeater';
